import type { ConditionNode } from '@gatehouse/engine';
import type { CompiledQuery } from 'kysely';
import { BoundValues } from '../db/statements/bound-values.js';
import { identityOf, statementCache } from '../db/statements/statement-cache.js';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import { narrowingShape, narrowQuery, type Narrowing, type NarrowingShape } from './build-index-query.js';
import type { LooseSelect, LooseTransaction } from '../models/loose-schema.js';
import { gatedQuery, type TrashedMode } from './gated-query.js';
import { bindCondition } from './bind-condition.js';

/** The rows a statement reads: a model's table behind its record gate, narrowed by a request. */
export interface Selection {
  model: ModelDefinition;
  scope: ScopeContext;
  trashed: TrashedMode;
  narrowing: Narrowing;
  /**
   * What the statement reads: a list (index, counts, include hops; the trash's for `trashed:
   * 'only'`) or one record (show, and the record an action acts on). Each reads through the
   * caller's condition on that action, so a record outside it is missing: a 404.
   */
  reads?: 'list' | 'record';
  /** The action whose condition the statement reads through instead: a record action's, to tell a 403 from the 404 above. */
  action?: string;
}

/** The action whose record condition a selection reads through. */
export function readAction({ reads = 'list', trashed, action }: Selection): string {
  if (action !== undefined) return action;
  if (reads === 'record') return 'show';
  return trashed === 'only' ? 'trashed' : 'index';
}

/**
 * A statement over a selection (a page, its count, one record...). Declared once, at module
 * level: the statement itself is part of its cache key.
 */
export interface SelectionStatement<S> {
  /** Builds the statement from the gated, narrowed query and its own shape (placeholders for values). */
  build(selected: LooseSelect, shape: S, trx: LooseTransaction): CompiledQuery;
}

/**
 * What the model's own functions (its record scope, the named scopes) are given: they may build
 * different SQL for different callers, so when one takes part the caller's context keys the
 * statement too. Without them the SQL is the same whoever asks; row-level security reads the
 * tenant from the transaction, not from the statement.
 */
const contextKey = ({ model, scope, narrowing }: Selection) =>
  model.recordScope || narrowing.scopes.length > 0 ? [scope.organizationId, scope.userId, scope.routeGroup] : null;

/** Whether `selection`'s SQL depends on who asks (see contextKey): then it cannot be built before the request's opening answers. */
export const readsCallerContext = (selection: Selection) => contextKey(selection) !== null;

/** Everything the SQL of `statement` over `selection` depends on, its values bound: its cache key. */
function boundShape<S>(selection: Selection, statement: object, shapeOf: (bound: BoundValues) => S, bound: BoundValues) {
  const narrowing = narrowingShape(selection.narrowing, bound);
  const condition = selection.scope.access?.condition(selection.model.slug, readAction(selection)) ?? null;
  const access = condition && bindCondition(condition, bound);
  const shape = shapeOf(bound);
  return { narrowing, access, shape, key: [identityOf(statement), identityOf(selection.model), selection.trashed, narrowing, access, shape, contextKey(selection)] };
}

const gatedSelection = (trx: LooseTransaction, { model, scope, trashed }: Selection, narrowing: NarrowingShape, access: ConditionNode | null) =>
  narrowQuery(gatedQuery(trx, model, scope, trashed, access), model, narrowing, scope);

/**
 * `statement` over `selection`, compiled once per shape: `shapeOf` binds this request's values
 * (besides the narrowing's) and returns the rest of what the SQL depends on. The key is the JSON
 * of everything the builder reads, so two requests share SQL only when it is the same.
 */
export function selectionStatement<S>(trx: LooseTransaction, selection: Selection, statement: SelectionStatement<S>, shapeOf: (bound: BoundValues) => S): CompiledQuery {
  const bound = new BoundValues();
  const { narrowing, access, shape, key } = boundShape(selection, statement, shapeOf, bound);
  return statementCache.statement(JSON.stringify(key), bound, () => statement.build(gatedSelection(trx, selection, narrowing, access), shape, trx));
}

/** A select over a selection that other statements may read from as a subquery: a page, a record, an include hop. */
export interface SelectionQuery<S> {
  query(selected: LooseSelect, shape: S, trx: LooseTransaction): LooseSelect;
}

/**
 * A selection query with its values bound in a statement's BoundValues, not compiled: the
 * statement nests it. Its JSON is everything its SQL depends on, so it keys the statements it is
 * part of, like a placeholder does.
 */
export class BoundQuery {
  constructor(
    readonly key: unknown[],
    readonly query: () => LooseSelect,
  ) {}

  toJSON(): unknown[] {
    return this.key;
  }
}

/** `query` over `selection`, its values bound in `bound` (see selectionStatement). */
export function boundQuery<S>(trx: LooseTransaction, selection: Selection, query: SelectionQuery<S>, shapeOf: (bound: BoundValues) => S, bound: BoundValues): BoundQuery {
  const { narrowing, access, shape, key } = boundShape(selection, query, shapeOf, bound);
  return new BoundQuery(key, () => query.query(gatedSelection(trx, selection, narrowing, access), shape, trx));
}

/** The statement of a query built by `build` in a fresh BoundValues, compiled once per shape. */
export function queryStatement(build: (bound: BoundValues) => BoundQuery): CompiledQuery {
  const bound = new BoundValues();
  const query = build(bound);
  return statementCache.statement(JSON.stringify(query), bound, () => query.query().compile());
}

/** Runs `statement` over `selection` (see selectionStatement). */
export async function selectRows<S, R = Record<string, unknown>>(trx: LooseTransaction, selection: Selection, statement: SelectionStatement<S>, shapeOf: (bound: BoundValues) => S): Promise<R[]> {
  return (await trx.executeQuery<R>(selectionStatement(trx, selection, statement, shapeOf))).rows;
}
