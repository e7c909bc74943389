import { assertPermittedFields, permittedAttributesFor, type WriteOperation } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { Caller, DataPolicy } from './data-context.js';

/** Keys the server keeps itself: never taken from a body, and changing along with any update. */
export const SERVER_OWNED: readonly string[] = ['id', 'organization_id', 'created_at', 'updated_at', 'deleted_at'];

/**
 * A body may set only fields that are both fillable on the model and in the policy's write list;
 * anything else gets the contract's 403. The keys the server owns (the record key, the tenant,
 * the author, timestamps) are never taken from a body: a caller with an unrestricted write list
 * ("roles with * may set every field") has them dropped rather than refused, everyone else is
 * refused them like any field outside their list. Returns the body to write.
 */
export function writableBody(model: ModelDefinition, policy: DataPolicy, user: Caller | null, body: LooseRow, operation: WriteOperation): LooseRow {
  const permitted = permittedAttributesFor(policy, user, operation);
  const serverOwned = new Set(model.authorColumn ? [...SERVER_OWNED, model.authorColumn] : SERVER_OWNED);
  const written = permitted === null ? Object.fromEntries(Object.entries(body).filter(([key]) => !serverOwned.has(key))) : body;
  assertPermittedFields(settableFields(model, permitted), written);
  return written;
}

/** The fields a body may set: fillable on the model and in the policy's write list (`null`: every fillable one). */
export function settableFields(model: ModelDefinition, permitted: readonly string[] | null): string[] {
  return model.fillable.filter((field) => permitted === null || permitted.includes(field));
}
