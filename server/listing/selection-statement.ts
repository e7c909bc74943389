import type { CompiledQuery } from 'kysely';
import { BoundValues } from '../db/statements/bound-values.js';
import { identityOf, statementCache } from '../db/statements/statement-cache.js';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import { narrowingShape, narrowQuery, type Narrowing } from './build-index-query.js';
import type { LooseSelect, LooseTransaction } from '../models/loose-schema.js';
import { gatedQuery, type TrashedMode } from './gated-query.js';

/** The rows a statement reads: a model's table behind its record gate, narrowed by a request. */
export interface Selection {
  model: ModelDefinition;
  scope: ScopeContext;
  trashed: TrashedMode;
  narrowing: Narrowing;
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

/**
 * `statement` over `selection`, compiled once per shape: `shapeOf` binds this request's values
 * (besides the narrowing's) and returns the rest of what the SQL depends on. The key is the JSON
 * of everything the builder reads, so two requests share SQL only when it is the same.
 */
export function selectionStatement<S>(trx: LooseTransaction, selection: Selection, statement: SelectionStatement<S>, shapeOf: (bound: BoundValues) => S): CompiledQuery {
  const { model, scope, trashed } = selection;
  const bound = new BoundValues();
  const narrowing = narrowingShape(selection.narrowing, bound);
  const shape = shapeOf(bound);
  const key = JSON.stringify([identityOf(statement), identityOf(model), trashed, narrowing, shape, contextKey(selection)]);
  return statementCache.statement(key, bound, () => statement.build(narrowQuery(gatedQuery(trx, model, scope, trashed), model, narrowing, scope), shape, trx));
}

/** Runs `statement` over `selection` (see selectionStatement). */
export async function selectRows<S, R = Record<string, unknown>>(trx: LooseTransaction, selection: Selection, statement: SelectionStatement<S>, shapeOf: (bound: BoundValues) => S): Promise<R[]> {
  return (await trx.executeQuery<R>(selectionStatement(trx, selection, statement, shapeOf))).rows;
}
