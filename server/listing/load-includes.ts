import { sql, type CompiledQuery } from 'kysely';
import type { ModelDefinition, Relation, ScopeContext } from '../models/define-model.js';
import type { BoundValues } from '../db/statements/bound-values.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { NO_NARROWING } from './build-index-query.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import { boundQuery, queryStatement, readsCallerContext, selectionStatement, type BoundQuery, type Selection, type SelectionQuery, type SelectionStatement } from './selection-statement.js';
import { sendLastReads, sentAhead } from '../db/transactions/read-ahead.js';
import { IncludeTooLargeError } from '../errors/include-too-large-error.js';
import { MAX_INCLUDE_ROWS_PER_HOP, MAX_INCLUDED_RECORDS } from '../models/request-limits.js';

export interface IncludedRelation {
  target: ModelDefinition;
  value: LooseRow | LooseRow[] | null;
}

/** Included rows per parent row, by relation name. */
export type IncludedRelations = Map<LooseRow, Record<string, IncludedRelation>>;

interface RelatedShape {
  column: string;
  keys: unknown[];
}

// One row past the limit tells a hop that reaches too many from one that reaches just enough.
const HOP_ROWS = MAX_INCLUDE_ROWS_PER_HOP + 1;

/**
 * The related rows of a hop, their keys as one array parameter: one statement whatever the
 * number of parents, so its compilation and its plan are shared by every page.
 */
const RELATED: SelectionStatement<RelatedShape> = {
  build: (selected, { column, keys }) =>
    selected.selectAll().where(sql.ref(column), '=', sql<unknown>`any(${keys})`).orderBy(sql.ref('id')).limit(HOP_ROWS).compile(),
};

/** Where a read's rows come from, as a subquery bound in a statement's values: what the first include hops read their parents from. */
export type ParentRows = (bound: BoundValues) => BoundQuery;

interface RelatedToShape {
  column: string;
  parentKey: string;
  parents: BoundQuery;
}

/**
 * The related rows of a hop whose parents are the rows of another statement, nested as a
 * subquery: the same rows as RELATED with their keys, known before the parents are read.
 */
const RELATED_TO: SelectionQuery<RelatedToShape> = {
  query: (selected, { column, parentKey, parents }, trx) =>
    selected
      .selectAll()
      .where(sql.ref(column), 'in', trx.selectFrom(parents.query().as('parent')).select(sql.ref(`parent.${parentKey}`).as('key')))
      .orderBy(sql.ref('id'))
      .limit(HOP_ROWS),
};

interface IncludeTree {
  [relation: string]: IncludeTree;
}

function includeTree(paths: readonly string[]): IncludeTree {
  const tree: IncludeTree = {};
  for (const path of paths) {
    let node = tree;
    for (const hop of path.split('.')) node = node[hop] ??= {};
  }
  return tree;
}

/** Which column of the parent a hop's rows match, and on which of theirs. */
function hopKeys(relation: Relation): { parentKey: string; column: string } {
  return relation.kind === 'belongsTo' ? { parentKey: relation.foreignKey, column: 'id' } : { parentKey: 'id', column: relation.foreignKey };
}

const relatedSelection = (target: ModelDefinition, scope: ScopeContext): Selection => ({ model: target, scope, trashed: 'without', narrowing: NO_NARROWING });

/**
 * Every hop's statement by its dot path, each reading its parents' keys from the statement of the
 * hop before it (the first from `parents`) as a subquery: known before any row is read, so they
 * travel with the read's other statements. Each hop passes its own model's record gate as with
 * loadIncludes. Null when one cannot be built before the request's opening answers (a hop's SQL
 * depends on the caller: `readsCallerContext`) or names no relation (the include gate refuses it).
 */
export function includeStatements(
  trx: LooseTransaction,
  registry: ModelRegistry,
  model: ModelDefinition,
  paths: readonly string[],
  { scope, knowsCaller }: { scope: ScopeContext; knowsCaller: boolean },
  parents: ParentRows,
): Map<string, CompiledQuery> | null {
  const statements = new Map<string, CompiledQuery>();
  const plan = (owner: ModelDefinition, from: ParentRows, tree: IncludeTree, prefix: string): boolean =>
    Object.entries(tree).every(([name, subtree]) => {
      const found = registry.relation(owner, name);
      if (!found) return false;
      const selection = relatedSelection(found.target, scope);
      if (!knowsCaller && readsCallerContext(selection)) return false;
      const rows: ParentRows = (bound) => boundQuery(trx, selection, RELATED_TO, (own) => ({ ...hopKeys(found.relation), parents: from(own) }), bound);
      statements.set(`${prefix}${name}`, queryStatement(rows));
      return plan(found.target, rows, subtree, `${prefix}${name}.`);
    });
  return plan(model, parents, includeTree(paths), '') ? statements : null;
}

/** How many records `rows` embed through their includes, every copy counted: what serializing them writes out. */
function embeddedRecords(included: IncludedRelations, rows: readonly LooseRow[]): number {
  // A row reached from several parents embeds the same each time: counted once, added per parent.
  const counted = new Map<LooseRow, number>();
  const count = (row: LooseRow): number => {
    let total = counted.get(row);
    if (total === undefined) {
      total = 0;
      for (const { value } of Object.values(included.get(row) ?? {})) for (const child of [value ?? []].flat()) total += 1 + count(child);
      counted.set(row, total);
    }
    return total;
  };
  return rows.reduce((sum, row) => sum + count(row), 0);
}

function attach(included: IncludedRelations, row: LooseRow, name: string, relation: IncludedRelation) {
  const relations = included.get(row) ?? {};
  relations[name] = relation;
  included.set(row, relations);
}

/** How loadIncludes reads. */
export interface IncludeReading {
  /** Nothing is read after the includes, so their last statement travels with the transaction's COMMIT (`db/transactions/read-ahead.ts`). */
  endsRead?: boolean;
  /** Where `rows` come from, when their statement's SQL is the same whoever asks: hops the request sent ahead are read as includeStatements planned them. */
  parents?: ParentRows | null;
}

/**
 * Loads included relations one query per hop. Related rows pass the related model's own record
 * gate (row-level security, its scope, soft deletes), so an include never reveals a row the
 * caller could not list directly. When the request sent the hops ahead with its opening (see
 * includeStatements), each reads its parents as a subquery, in the snapshot they were read in;
 * otherwise a hop reads by its parents' keys once they are in, depth first, the last one with
 * COMMIT when `endsRead`. A hop that reaches more than MAX_INCLUDE_ROWS_PER_HOP rows, or includes
 * that embed more than MAX_INCLUDED_RECORDS records in all, are a 422 (`IncludeTooLargeError`).
 */
export async function loadIncludes(
  trx: LooseTransaction,
  registry: ModelRegistry,
  model: ModelDefinition,
  rows: readonly LooseRow[],
  paths: readonly string[],
  context: ScopeContext,
  { endsRead = false, parents = null }: IncludeReading = {},
): Promise<IncludedRelations> {
  const included: IncludedRelations = new Map();
  // Most reads include nothing: nothing to plan, nothing to ask the connection.
  if (paths.length === 0) return included;
  const statements = parents && includeStatements(trx, registry, model, paths, { scope: context, knowsCaller: true }, parents);
  // A hop's subquery reads its parents again: only in the snapshot they were read in.
  const planned = statements && (await sentAhead(trx, [...statements.values()])) ? statements : null;
  const loadLevel = async (owner: ModelDefinition, parentRows: readonly LooseRow[], tree: IncludeTree, lastBranch: boolean, prefix: string): Promise<void> => {
    const hops = Object.entries(tree);
    for (const [index, [name, subtree]] of hops.entries()) {
      // Hops load depth first: the last statement is the last hop's, down its last branch.
      const last = lastBranch && index === hops.length - 1;
      const { relation, target } = registry.relation(owner, name)!;
      const { parentKey, column } = hopKeys(relation);
      const keys = [...new Set(parentRows.map((parent) => parent[parentKey]).filter((key) => key !== null && key !== undefined))];
      const statement = planned?.get(`${prefix}${name}`);
      const children = statement
        ? (await trx.executeQuery<LooseRow>(statement)).rows
        : keys.length === 0
          ? []
          : await related(target, column, keys, last && Object.keys(subtree).length === 0);
      if (children.length > MAX_INCLUDE_ROWS_PER_HOP) throw IncludeTooLargeError.perHop(`${prefix}${name}`, MAX_INCLUDE_ROWS_PER_HOP);
      const byKey = new Map<unknown, LooseRow[]>();
      for (const child of children) byKey.set(child[column], [...(byKey.get(child[column]) ?? []), child]);
      for (const parent of parentRows) {
        const matches = byKey.get(parent[parentKey]) ?? [];
        attach(included, parent, name, { target, value: relation.kind === 'belongsTo' ? (matches[0] ?? null) : matches });
      }
      await loadLevel(target, children, subtree, last, `${prefix}${name}.`);
    }
  };
  const related = async (target: ModelDefinition, column: string, keys: unknown[], lastRead: boolean): Promise<LooseRow[]> => {
    const statement = selectionStatement<RelatedShape>(trx, relatedSelection(target, context), RELATED, (bound) => ({ column, keys: bound.bind(keys) }));
    if (lastRead) await sendLastReads(trx, [statement]);
    return (await trx.executeQuery<LooseRow>(statement)).rows;
  };
  await loadLevel(model, rows, includeTree(paths), endsRead, '');
  if (embeddedRecords(included, rows) > MAX_INCLUDED_RECORDS) throw IncludeTooLargeError.perAnswer(MAX_INCLUDED_RECORDS);
  return included;
}
