import { ForbiddenFieldsError } from '../errors/forbidden-fields-error.js';
import type { PolicyUser } from '../policy/policy-context.js';
import type { ResourcePolicy } from '../policy/resource-policy.js';

type WritePolicy = Pick<ResourcePolicy, 'permittedAttributesForCreate' | 'permittedAttributesForUpdate'>;

export type WriteOperation = 'create' | 'update';

/**
 * Throws `ForbiddenFieldsError` (403) naming, in request order, every field of `body` outside
 * the policy's write list for the operation. A `null` list allows every field.
 */
export function assertWritableAttributes(
  policy: WritePolicy,
  user: PolicyUser | null,
  body: Readonly<Record<string, unknown>>,
  operation: WriteOperation,
): void {
  const permitted = operation === 'create' ? policy.permittedAttributesForCreate(user) : policy.permittedAttributesForUpdate(user);
  if (permitted === null) return;
  const writable = new Set(permitted);
  const refused = Object.keys(body).filter((field) => !writable.has(field));
  if (refused.length > 0) throw new ForbiddenFieldsError(refused);
}
