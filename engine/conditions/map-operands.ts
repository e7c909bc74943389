import type { ConditionNode, Operand } from './condition-tree.js';

/** The tree with each of its values replaced by `map`'s answer, its shape unchanged. */
export function mapOperands(node: ConditionNode, map: (operand: Operand) => Operand): ConditionNode {
  switch (node.op) {
    case 'true':
    case 'false':
    case 'null':
    case 'not_null':
      return node;
    case 'and':
    case 'or':
      return { op: node.op, conditions: node.conditions.map((part) => mapOperands(part, map)) };
    case 'not':
    case 'some':
    case 'none':
    case 'every':
      return { ...node, condition: mapOperands(node.condition, map) };
    case 'in':
    case 'nin':
      return { ...node, values: node.values.map(map) };
    default:
      return { ...node, value: map(node.value) };
  }
}
