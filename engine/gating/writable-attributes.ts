import { ForbiddenFieldsError } from '../errors/forbidden-fields-error.js';
import type { PolicyUser } from '../policy/policy-context.js';
import type { ResourcePolicy } from '../policy/resource-policy.js';

type WritePolicy = Pick<ResourcePolicy, 'permittedAttributesForCreate' | 'permittedAttributesForUpdate'>;

export type WriteOperation = 'create' | 'update';

/** The policy's write list for the operation; `null` allows every field. */
export function permittedAttributesFor(policy: WritePolicy, user: PolicyUser | null, operation: WriteOperation): string[] | null {
  return operation === 'create' ? policy.permittedAttributesForCreate(user) : policy.permittedAttributesForUpdate(user);
}

/**
 * Throws `ForbiddenFieldsError` (403) naming, in request order, every field of `body` outside
 * `permitted`. A `null` list allows every field.
 */
export function assertPermittedFields(permitted: readonly string[] | null, body: Readonly<Record<string, unknown>>): void {
  if (permitted === null) return;
  const writable = new Set(permitted);
  const refused = Object.keys(body).filter((field) => !writable.has(field));
  if (refused.length > 0) throw new ForbiddenFieldsError(refused);
}

/** `assertPermittedFields` against the policy's write list for the operation. */
export function assertWritableAttributes(
  policy: WritePolicy,
  user: PolicyUser | null,
  body: Readonly<Record<string, unknown>>,
  operation: WriteOperation,
): void {
  assertPermittedFields(permittedAttributesFor(policy, user, operation), body);
}
