import { assertFieldsExplained, explainFields, permittedAttributesFor, type FieldsExplanation, type WriteOperation } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { Caller, DataPolicy } from './data-action-context.js';

/** Keys the server keeps itself: never taken from a body, and changing along with any update. */
export const SERVER_OWNED: readonly string[] = ['id', 'organization_id', 'created_at', 'updated_at', 'deleted_at'];

export interface WriteDecision {
  /** The fields that would be written. */
  readonly written: string[];
  readonly explanation: FieldsExplanation;
}

/**
 * A body may set only fields that are both fillable on the model and in the policy's write list;
 * anything else gets the forbidden-fields 403. The keys the server owns (the record key, the tenant,
 * the author, timestamps) are never taken from a body: a caller with an unrestricted write list
 * ("roles with * may set every field") has them dropped rather than refused, everyone else is
 * refused them like any field outside their list.
 */
export function decideWrite(model: ModelDefinition, policy: DataPolicy, user: Caller | null, fields: readonly string[], operation: WriteOperation): WriteDecision {
  const serverOwned = new Set(model.authorColumn ? [...SERVER_OWNED, model.authorColumn] : SERVER_OWNED);
  const written = permittedAttributesFor(policy, user, operation) === null ? fields.filter((field) => !serverOwned.has(field)) : [...fields];
  return { written, explanation: explainFields(policy, user, written, operation, model.fillable) };
}

/** The body to write, or the 403 naming the refused fields and the policy method that refused them. */
export function writableBody(model: ModelDefinition, policy: DataPolicy, user: Caller | null, body: LooseRow, operation: WriteOperation): LooseRow {
  const { written, explanation } = decideWrite(model, policy, user, Object.keys(body), operation);
  assertFieldsExplained(explanation);
  return Object.fromEntries(written.map((field) => [field, body[field]]));
}

/** The fields a body may set: fillable on the model and in the policy's write list (`null`: every fillable one). */
export function settableFields(model: ModelDefinition, permitted: readonly string[] | null): string[] {
  return model.fillable.filter((field) => permitted === null || permitted.includes(field));
}
