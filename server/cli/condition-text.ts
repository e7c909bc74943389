import type { ConditionNode } from '@gatehouse/engine';

const SYMBOLS: Partial<Record<ConditionNode['op'], string>> = { eq: '=', ne: '!=', lt: '<', lte: '<=', gt: '>', gte: '>=', in: 'in', nin: 'not in' };

/** A part of a larger condition, in parentheses where it joins parts of its own. */
const part = (node: ConditionNode) => (node.op === 'and' || node.op === 'or' ? `(${conditionText(node)})` : conditionText(node));

/** A resolved record condition in one line for a terminal: `status = "published" or author_id = 6`. */
export function conditionText(node: ConditionNode): string {
  switch (node.op) {
    case 'true':
      return 'every record';
    case 'false':
      return 'no record';
    case 'and':
    case 'or':
      return node.conditions.map(part).join(` ${node.op} `);
    case 'not':
      return `not ${part(node.condition)}`;
    case 'null':
      return `${node.attribute} is null`;
    case 'not_null':
      return `${node.attribute} is not null`;
    case 'some':
    case 'none':
    case 'every':
      return `${node.op} ${node.relation} (${conditionText(node.condition)})`;
    case 'in':
    case 'nin':
      return `${node.attribute} ${SYMBOLS[node.op]} (${node.values.map((value) => JSON.stringify(value)).join(', ')})`;
    default:
      return `${node.attribute} ${SYMBOLS[node.op]} ${JSON.stringify(node.value)}`;
  }
}
