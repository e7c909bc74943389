import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../query/loose-schema.js';
import type { Caller, DataPolicy } from './data-context.js';
import { DataError } from './data-errors.js';

/**
 * A body may set only fields that are both fillable on the model and in the policy's write list,
 * so keys the server owns (organization_id, author_id, timestamps) are refused like any other.
 */
export function checkWritableFields(model: ModelDefinition, policy: DataPolicy, user: Caller | null, body: LooseRow, mode: 'create' | 'update'): void {
  const permitted = mode === 'create' ? policy.permittedAttributesForCreate(user) : policy.permittedAttributesForUpdate(user);
  const refused = Object.keys(body).filter((field) => !model.fillable.includes(field) || (permitted !== null && !permitted.includes(field)));
  if (refused.length > 0) throw new DataError(403, `You are not allowed to set the following field(s): ${refused.join(', ')}`);
}
