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

/** The rows a condition is compiled against: their table, columns and relations. */
export interface SqlTarget {
  readonly table: string;
  /** Whether deleted rows stay in the table with a `deleted_at`; a relation reads only the live ones. */
  readonly softDeletes: boolean;
  /** The column an attribute is stored in. */
  column(attribute: string): string;
  /** Whether an attribute holds integers: its values are compared as bigint, so one past the int4 range is just unequal. */
  integer(attribute: string): boolean;
  /** A relation the condition names, and the rows it reaches. */
  relation(name: string): { readonly kind: 'belongsTo' | 'hasMany'; readonly foreignKey: string; readonly target: SqlTarget };
}

/**
 * A resolved record condition as a SQL predicate on the rows of `target`, named `alias` in the
 * statement. Every part is two-valued, so `not` and `none` answer on NULL exactly as the
 * in-memory check does: a test on a NULL attribute is false (`ne` and `nin` true), never NULL.
 * A relation is an EXISTS subquery on the related table (its live rows), `every` being
 * `not exists` of a row that fails: true on no rows at all.
 */
export function conditionSql(node: ConditionNode, target: SqlTarget, alias: string, depth = 0): SqlPiece[] {
  const column = (attribute: string): SqlPiece => ({ ref: [alias, target.column(attribute)] });
  const value = (attribute: string, operand: Operand): SqlPiece => ({ value: operand, integer: target.integer(attribute) });
  const compare = (attribute: string, operator: string, operand: Operand): SqlPiece[] => ['(', column(attribute), ` ${operator} `, value(attribute, operand), ' and ', column(attribute), ' is not null)'];
  const list = (attribute: string, operands: readonly Operand[]): SqlPiece[] => operands.flatMap((operand, index) => (index === 0 ? [value(attribute, operand)] : [', ', value(attribute, operand)]));
  const joined = (parts: readonly ConditionNode[], operator: string): SqlPiece[] => ['(', ...parts.flatMap((part, index) => [...(index === 0 ? [] : [operator]), ...conditionSql(part, target, alias, depth)]), ')'];
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
      return compare(node.attribute, '=', node.value);
    case 'ne':
      return ['(', column(node.attribute), ' is distinct from ', value(node.attribute, node.value), ')'];
    case 'lt':
      return compare(node.attribute, '<', node.value);
    case 'lte':
      return compare(node.attribute, '<=', node.value);
    case 'gt':
      return compare(node.attribute, '>', node.value);
    case 'gte':
      return compare(node.attribute, '>=', node.value);
    case 'in':
      return ['(', column(node.attribute), ' in (', ...list(node.attribute, node.values), ') and ', column(node.attribute), ' is not null)'];
    case 'nin':
      return ['(', column(node.attribute), ' is null or ', column(node.attribute), ' not in (', ...list(node.attribute, node.values), '))'];
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
