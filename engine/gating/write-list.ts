import type { PolicyUser } from '../policy/policy-context.js';
import type { ResourcePolicy } from '../policy/resource-policy.js';

export type WritePolicy = Pick<ResourcePolicy, 'permittedAttributesForCreate' | 'permittedAttributesForUpdate'>;

export type WriteOperation = 'create' | 'update';

/** The policy's write list for the operation; `null` allows every field. */
export function permittedAttributesFor(policy: WritePolicy, user: PolicyUser | null, operation: WriteOperation): string[] | null {
  return operation === 'create' ? policy.permittedAttributesForCreate(user) : policy.permittedAttributesForUpdate(user);
}
