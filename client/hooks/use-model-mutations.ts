import { bodyOf, settled } from '../http/response-body.js';
import { modelUrl, nestedUrl } from '../urls/data-url.js';
import { useDataScope } from './use-data-scope.js';
import type { ModelRecord, RecordId } from './use-model-queries.js';
import { isRecordKey } from '../cache/cache-keys.js';
import { useScopedMutation, type GoneQuery, type Send } from './use-scoped-request.js';

function useModelMutation<Variables, Result>(
  touchedModels: (variables: Variables) => string[],
  send: Send<Variables, Result>,
  gone?: (variables: Variables) => GoneQuery,
) {
  return useScopedMutation(useDataScope(), touchedModels, send, gone);
}

/** The deleted record's own queries of these kinds. */
const recordQueries = (model: string, kinds: readonly string[]) => (id: RecordId): GoneQuery => (key) => isRecordKey(key, model, kinds, id);

/** `POST /{model}` with the new record's attributes; resolves to the stored record. */
export function useModelStore<T = ModelRecord>(model: string) {
  return useModelMutation(
    () => [model],
    (http, base, attributes: Partial<T>) => bodyOf(http.post<T>(modelUrl(base, model), attributes)),
  );
}

/** `PUT /{model}/{id}` with the changed attributes; resolves to the updated record. */
export function useModelUpdate<T = ModelRecord>(model: string) {
  return useModelMutation(
    () => [model],
    (http, base, { id, data }: { id: RecordId; data: Partial<T> }) => bodyOf(http.put<T>(modelUrl(base, model, id), data)),
  );
}

/**
 * `DELETE /{model}/{id}` (a soft delete where the model has them). The record's own show query
 * is marked stale rather than refetched: a page showing it keeps it until it moves on.
 */
export function useModelDelete(model: string) {
  return useModelMutation(
    () => [model],
    (http, base, id: RecordId) => settled(http.delete(modelUrl(base, model, id))),
    recordQueries(model, ['show']),
  );
}

/** `POST /{model}/{id}/restore`; resolves to the restored record. */
export function useModelRestore<T = ModelRecord>(model: string) {
  return useModelMutation(
    () => [model],
    (http, base, id: RecordId) => bodyOf(http.post<T>(modelUrl(base, model, id, 'restore'))),
  );
}

/** `DELETE /{model}/{id}/force-delete`: gone for good, its show and audit queries marked stale as a delete's are. */
export function useModelForceDelete(model: string) {
  return useModelMutation(
    () => [model],
    (http, base, id: RecordId) => settled(http.delete(modelUrl(base, model, id, 'force-delete'))),
    recordQueries(model, ['show', 'audit']),
  );
}

export interface NestedOperation {
  model: string;
  action: 'create' | 'update' | 'delete';
  /** A key, or `"$N.id"` for the record operation N of the same request wrote. */
  id?: RecordId;
  /** A value `"$N.field"` is that field of operation N's result (earlier operations only). */
  data?: ModelRecord;
}

/** The operations, given as a list or as rhino-react's `{operations}`. */
export type NestedOperations = NestedOperation[] | { operations: NestedOperation[] };

const operationsOf = (given: NestedOperations) => (Array.isArray(given) ? given : given.operations);

/**
 * `POST /{model}/nested`, or `POST /nested` without a model: the operations commit together or
 * not at all; resolves to the resulting records in operation order (a deleted one as
 * `{id, deleted: true}`).
 */
export function useNestedOperations<Result = unknown>(model?: string) {
  return useModelMutation(
    (given: NestedOperations) => [...(model ? [model] : []), ...operationsOf(given).map((operation) => operation.model)],
    async (http, base, given: NestedOperations) =>
      bodyOf(http.post<Result[]>(nestedUrl(base, model), { operations: operationsOf(given) })),
  );
}
