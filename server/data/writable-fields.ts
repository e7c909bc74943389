import { assertWritableAttributes, type WriteOperation } from '../../engine/index.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../query/loose-schema.js';
import type { Caller, DataPolicy } from './data-context.js';

/**
 * A body may set only fields that are both fillable on the model and in the policy's write list,
 * so keys the server owns (organization_id, author_id, timestamps) are refused by the same 403.
 */
export function assertWritableFields(model: ModelDefinition, policy: DataPolicy, user: Caller | null, body: LooseRow, operation: WriteOperation): void {
  const fillable = (permitted: string[] | null) => model.fillable.filter((field) => permitted === null || permitted.includes(field));
  const narrowed = {
    permittedAttributesForCreate: (caller: Caller | null) => fillable(policy.permittedAttributesForCreate(caller)),
    permittedAttributesForUpdate: (caller: Caller | null) => fillable(policy.permittedAttributesForUpdate(caller)),
  };
  assertWritableAttributes(narrowed, user, body, operation);
}
