import type { Decision, StandardAction } from '@gatehouse/engine/wire';
import { bodyOf } from '../http/response-body.js';
import type { RecordId } from './use-model-queries.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedMutation } from './use-scoped-request.js';

/** A data request to explain: the caller's own, or `userId`'s (needs `decisions.explain`). */
export interface ExplainRequest {
  /** A model, or another service's registered resource (decided by its permission alone). */
  model: string;
  /** A standard action of a model, or an action the resource registers. */
  action: StandardAction | (string & {});
  /** The record, for show, update, destroy, restore and forceDelete. */
  id?: RecordId;
  userId?: number;
  /** The fields a store or update sets. */
  fields?: string[];
  /** Include paths of an index or show, dotted for nested ones. */
  include?: string[];
}

/**
 * Asks `POST {t}/explain` how a request would be decided: `mutate({model, action, id?, userId?})`,
 * then `data` is the decision, its `checks` gate by gate in the server's order of checks. Nothing
 * is cached: each explanation reads the permissions as they are now.
 */
export function useExplain() {
  return useScopedMutation(useTenantScope(), () => [], (http, base, { userId, id, ...request }: ExplainRequest) =>
    bodyOf(http.post<Decision>(`${base}/explain`, { ...request, ...(id === undefined ? {} : { id: Number(id) }), ...(userId === undefined ? {} : { user_id: userId }) })),
  );
}
