import { conditionSql, type SqlPiece, type SqlTarget } from '@gatehouse/engine';
import type { AuthorizePlan } from '@gatehouse/engine/wire';
import { ScopedPlanError, UnmappedRelationError } from './errors.js';

/** Your table, as a plan's condition reads it. */
export interface PlanTable {
  /** The table (`invoices`, or `billing.invoices`); its name also qualifies the columns. */
  table: string;
  /** A column by attribute, where your column is named otherwise (`{ author_id: 'owner_id' }`); the key is `id`. */
  columns?: Record<string, string>;
  /** The relations the plan may test (`some`/`none`/`every`): how your tables join. */
  relations?: Record<string, PlanRelation>;
  /** Deleted rows stay with a `deleted_at`: a relation reads only the others, as Gatehouse does. */
  softDeletes?: boolean;
}

export interface PlanRelation extends PlanTable {
  /** `belongsTo`: the foreign key is this table's column; `hasMany`: the related table's. */
  kind: 'belongsTo' | 'hasMany';
  foreignKey: string;
}

export interface PlanSqlOptions {
  /** The number of the first parameter (`$1` unless the statement already has some). */
  firstParameter?: number;
  /**
   * For a `scoped` plan: your query applies the model's `recordScope` itself. Without it such a
   * plan is refused, since its `WHERE` alone would let through records the scope hides.
   */
  scopeApplied?: boolean;
}

/** A PostgreSQL `WHERE` predicate and its values, for the driver's parameterized query. */
export interface PlanSql {
  sql: string;
  values: Array<string | number | boolean>;
}

function sqlTarget(table: PlanTable): SqlTarget {
  return {
    table: table.table,
    softDeletes: table.softDeletes ?? false,
    column: (attribute) => table.columns?.[attribute] ?? attribute,
    // A resolved plan holds numbers for integer attributes only: the renderer casts them, below.
    integer: () => false,
    // ...and strings for text attributes only: the compiler compares them byte for byte.
    text: () => false,
    relation(name) {
      const relation = table.relations?.[name];
      if (relation === undefined) throw new UnmappedRelationError(name);
      return { kind: relation.kind, foreignKey: relation.foreignKey, target: sqlTarget(relation) };
    },
  };
}

const identifier = (name: string) => name.split('.').map((part) => `"${part.replaceAll('"', '""')}"`).join('.');

/**
 * A plan of `authorize` (`plans`) as a `WHERE` on your table: `true` for `always`, `false` for
 * `never`, else the condition compiled by the engine's compiler, the one Gatehouse's own lists
 * run, so NULLs, `not` and relations answer as they do there. Values are parameters, never text.
 */
export function planToSql(plan: AuthorizePlan, table: PlanTable, { firstParameter = 1, scopeApplied = false }: PlanSqlOptions = {}): PlanSql {
  if (plan.kind !== 'never' && plan.scoped && !scopeApplied) throw new ScopedPlanError(plan.model);
  if (plan.kind !== 'conditional') return { sql: plan.kind === 'always' ? 'true' : 'false', values: [] };
  const values: PlanSql['values'] = [];
  const rendered = (piece: SqlPiece): string => {
    if (typeof piece === 'string') return piece;
    if ('ref' in piece) return `${identifier(piece.ref[0])}.${identifier(piece.ref[1])}`;
    if ('table' in piece) return identifier(piece.table);
    if ('alias' in piece) return identifier(piece.alias);
    if (typeof piece.value === 'object') throw new TypeError('A plan from authorize has its facts filled in.');
    values.push(piece.value);
    const parameter = `$${firstParameter + values.length - 1}`;
    // Integers compare as bigint, as Gatehouse does: one past the int4 range is just unequal.
    return typeof piece.value === 'number' ? `${parameter}::bigint` : parameter;
  };
  return { sql: conditionSql(plan.condition, sqlTarget(table), table.table).map(rendered).join(''), values };
}
