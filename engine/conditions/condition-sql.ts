import type { ConditionNode, Operand } from './condition-tree.js';

/**
 * A piece of SQL as the condition compiler writes it, before any driver renders it: raw text, a
 * column reference (`alias.column`), a table, an alias, or a value (an integer one cast to
 * bigint). The server renders the pieces with Kysely's `sql` tag, `@gatehouse/node` as text with
 * `$n` parameters: one compiler, so both apply a condition with the same NULL semantics.
 */
export type SqlPiece =
  | string
  | { readonly ref: readonly [alias: string, column: string] }
  | { readonly table: string }
  | { readonly alias: string }
  | { readonly value: Operand; readonly integer: boolean };

/** Compares text byte for byte: equal exactly when JavaScript's `===` says so. */
const BYTEWISE = ' collate "C"';

/** The rows a condition is compiled against: their table, columns and relations. */
export interface SqlTarget {
  readonly table: string;
  /** Whether deleted rows stay in the table with a `deleted_at`; a relation reads only the live ones. */
  readonly softDeletes: boolean;
  /** The column an attribute is stored in. */
  column(attribute: string): string;
  /** Whether an attribute holds integers: its values are compared as bigint, so one past the int4 range is just unequal. */
  integer(attribute: string): boolean;
  /** Whether an attribute holds text: its values are compared byte for byte (a literal string operand says so too). */
  text(attribute: string): boolean;
  /** A relation the condition names, and the rows it reaches. */
  relation(name: string): { readonly kind: 'belongsTo' | 'hasMany'; readonly foreignKey: string; readonly target: SqlTarget };
}

/**
 * A resolved record condition as a SQL predicate on the rows of `target`, named `alias` in the
 * statement. Every part is two-valued, so `not` and `none` answer on NULL exactly as the
 * in-memory check does: a test on a NULL attribute is false (`ne` and `nin` true), never NULL.
 * A relation is an EXISTS subquery on the related table (its live rows), `every` being
 * `not exists` of a row that fails: true on no rows at all. Text compares byte for byte, as
 * JavaScript does, whatever the column's collation (a case-insensitive one holds 'a' = 'A'):
 * `eq` and `in` test under the column's collation too, so its index still serves them.
 */
export function conditionSql(node: ConditionNode, target: SqlTarget, alias: string, depth = 0): SqlPiece[] {
  const column = (attribute: string): SqlPiece => ({ ref: [alias, target.column(attribute)] });
  const text = (attribute: string, operand: Operand) => typeof operand === 'string' || target.text(attribute);
  const value = (attribute: string, operand: Operand): SqlPiece => ({ value: operand, integer: target.integer(attribute) });
  const bytewise = (attribute: string, operand: Operand): SqlPiece[] => (text(attribute, operand) ? [value(attribute, operand), BYTEWISE] : [value(attribute, operand)]);
  const compare = (attribute: string, operator: string, operand: Operand): SqlPiece[] => ['(', column(attribute), ` ${operator} `, value(attribute, operand), ' and ', column(attribute), ' is not null)'];
  const list = (attribute: string, operands: readonly Operand[], of: typeof bytewise): SqlPiece[] => operands.flatMap((operand, index) => [...(index === 0 ? [] : [', ']), ...of(attribute, operand)]);
  const joined = (parts: readonly ConditionNode[], operator: string): SqlPiece[] => ['(', ...parts.flatMap((part, index) => [...(index === 0 ? [] : [operator]), ...conditionSql(part, target, alias, depth)]), ')'];
  const plain = (attribute: string, operand: Operand): SqlPiece[] => [value(attribute, operand)];
  /** `eq` and `in` on text hold under the column's collation (so its index serves them) and byte for byte. */
  const equal = (attribute: string, operands: readonly Operand[], single: boolean): SqlPiece[] => {
    const test = (of: typeof bytewise): SqlPiece[] => (single ? [column(attribute), ' = ', ...of(attribute, operands[0]!)] : [column(attribute), ' in (', ...list(attribute, operands, of), ')']);
    const bytes: SqlPiece[] = operands.some((operand) => text(attribute, operand)) ? [' and ', ...test(bytewise)] : [];
    return ['(', ...test(plain), ...bytes, ' and ', column(attribute), ' is not null)'];
  };
  switch (node.op) {
    case 'true':
      return ['true'];
    case 'false':
      return ['false'];
    case 'and':
      return joined(node.conditions, ' and ');
    case 'or':
      return joined(node.conditions, ' or ');
    case 'not':
      return ['(not ', ...conditionSql(node.condition, target, alias, depth), ')'];
    case 'eq':
      return equal(node.attribute, [node.value], true);
    case 'ne':
      return ['(', column(node.attribute), ' is distinct from ', ...bytewise(node.attribute, node.value), ')'];
    case 'lt':
      return compare(node.attribute, '<', node.value);
    case 'lte':
      return compare(node.attribute, '<=', node.value);
    case 'gt':
      return compare(node.attribute, '>', node.value);
    case 'gte':
      return compare(node.attribute, '>=', node.value);
    case 'in':
      return equal(node.attribute, node.values, false);
    case 'nin':
      return ['(', column(node.attribute), ' is null or ', column(node.attribute), ' not in (', ...list(node.attribute, node.values, bytewise), '))'];
    case 'null':
      return ['(', column(node.attribute), ' is null)'];
    case 'not_null':
      return ['(', column(node.attribute), ' is not null)'];
    default:
      return relationSql(node, target, alias, depth);
  }
}

function relationSql(node: Extract<ConditionNode, { relation: string }>, target: SqlTarget, alias: string, depth: number): SqlPiece[] {
  const relation = target.relation(node.relation);
  const related = `__related_${depth + 1}`;
  const joined: SqlPiece[] =
    relation.kind === 'hasMany'
      ? [{ ref: [related, relation.foreignKey] }, ' = ', { ref: [alias, target.column('id')] }]
      : [{ ref: [related, relation.target.column('id')] }, ' = ', { ref: [alias, relation.foreignKey] }];
  const live: SqlPiece[] = relation.target.softDeletes ? [' and ', { ref: [related, 'deleted_at'] }, ' is null'] : [];
  const exists = (inner: ConditionNode): SqlPiece[] => [
    'exists (select 1 from ',
    { table: relation.target.table },
    ' as ',
    { alias: related },
    ' where ',
    ...joined,
    ...live,
    ' and ',
    ...conditionSql(inner, relation.target, related, depth + 1),
    ')',
  ];
  if (node.op === 'some') return exists(node.condition);
  if (node.op === 'none') return ['(not ', ...exists(node.condition), ')'];
  return ['(not ', ...exists({ op: 'not', condition: node.condition }), ')'];
}
