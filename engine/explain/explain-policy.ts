import type { PolicyUser } from '../policy/policy-context.js';
import type { ResourcePolicy } from '../policy/resource-policy.js';
import type { PolicyMethod } from '../wire/standard-actions.js';

export interface PolicyExplanation {
  readonly allowed: boolean;
  /** `{slug}.{action}`, the permission the base policy checks. */
  readonly permission: string;
  readonly permission_held: boolean;
  /** `PostPolicy.create` when the method refused although the permission is held (an override), else null. */
  readonly refused_by: string | null;
}

/** `policy.explain(...)`, as a function. */
export function explainPolicy<TRecord extends object>(policy: ResourcePolicy<TRecord>, method: PolicyMethod, user: PolicyUser | null, record?: TRecord): PolicyExplanation {
  return policy.explain(method, user, record);
}
