import { sql } from 'kysely';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { NO_NARROWING } from './build-index-query.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import { selectionStatement, type SelectionStatement } from './selection-statement.js';
import { sendLastReads } from '../db/transactions/read-ahead.js';

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

/**
 * The related rows of a hop, their keys as one array parameter: one statement whatever the
 * number of parents, so its compilation and its plan are shared by every page.
 */
const RELATED: SelectionStatement<RelatedShape> = {
  build: (selected, { column, keys }) => selected.selectAll().where(sql.ref(column), '=', sql<unknown>`any(${keys})`).orderBy(sql.ref('id')).compile(),
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

function attach(included: IncludedRelations, row: LooseRow, name: string, relation: IncludedRelation) {
  const relations = included.get(row) ?? {};
  relations[name] = relation;
  included.set(row, relations);
}

/**
 * Loads included relations one query per hop. Related rows pass the related model's own record
 * gate (row-level security, its scope, soft deletes), so an include never reveals a row the
 * caller could not list directly. `endsRead`: nothing is read after them, so the last hop's
 * statement travels with the transaction's COMMIT (`db/transactions/read-ahead.ts`).
 */
export async function loadIncludes(
  trx: LooseTransaction,
  registry: ModelRegistry,
  model: ModelDefinition,
  rows: readonly LooseRow[],
  paths: readonly string[],
  context: ScopeContext,
  endsRead = false,
): Promise<IncludedRelations> {
  const included: IncludedRelations = new Map();
  const loadLevel = async (owner: ModelDefinition, parents: readonly LooseRow[], tree: IncludeTree, lastBranch: boolean): Promise<void> => {
    const hops = Object.entries(tree);
    for (const [index, [name, subtree]] of hops.entries()) {
      // Hops load depth first: the last statement is the last hop's, down its last branch.
      const last = lastBranch && index === hops.length - 1;
      const { relation, target } = registry.relation(owner, name)!;
      const ownKey = relation.kind === 'belongsTo' ? relation.foreignKey : 'id';
      const keys = [...new Set(parents.map((parent) => parent[ownKey]).filter((key) => key !== null && key !== undefined))];
      const targetKey = relation.kind === 'belongsTo' ? 'id' : relation.foreignKey;
      const children = keys.length === 0 ? [] : await related(target, targetKey, keys, last && Object.keys(subtree).length === 0);
      const byKey = new Map<unknown, LooseRow[]>();
      for (const child of children) byKey.set(child[targetKey], [...(byKey.get(child[targetKey]) ?? []), child]);
      for (const parent of parents) {
        const matches = byKey.get(parent[ownKey]) ?? [];
        attach(included, parent, name, { target, value: relation.kind === 'belongsTo' ? (matches[0] ?? null) : matches });
      }
      await loadLevel(target, children, subtree, last);
    }
  };
  const related = async (target: ModelDefinition, column: string, keys: unknown[], lastRead: boolean): Promise<LooseRow[]> => {
    const statement = selectionStatement<RelatedShape>(trx, { model: target, scope: context, trashed: 'without', narrowing: NO_NARROWING }, RELATED, (bound) => ({
      column,
      keys: bound.bind(keys),
    }));
    if (lastRead) await sendLastReads(trx, [statement]);
    return (await trx.executeQuery<LooseRow>(statement)).rows;
  };
  await loadLevel(model, rows, includeTree(paths), endsRead);
  return included;
}
