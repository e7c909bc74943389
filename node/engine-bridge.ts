import { unpackAbility, type PackedRules, type PolicyContext, type ResourcePolicy } from '@gatehouse/engine';
import type { Permissions } from './permissions-cache.js';
import type { TokenCaller } from './token-verifier.js';

/** A `ResourcePolicy` subclass of the service's own, for its own resources. */
export type ServicePolicyClass<P extends ResourcePolicy<object>> = new (context: PolicyContext) => P;

/**
 * The policy context Gatehouse's own data routes would build for the caller: the ability
 * Gatehouse compiled for them in the organization (the rules of `GET {t}/user-role`), their role,
 * the organization. A service's policy then checks `invoices.store` exactly as Gatehouse checks
 * `posts.store`, and a record against the record conditions (`posts.update:own`), which only
 * Gatehouse's policies declare and the rules carry with the caller's facts filled in.
 */
export function policyContextOf(caller: TokenCaller, permissions: Permissions): PolicyContext {
  return {
    user: { id: caller.userId },
    ability: unpackAbility(permissions.rules as PackedRules),
    role: permissions.role,
    organization: permissions.organization,
    routeGroup: caller.routeGroup,
  };
}

export function bindPolicy<P extends ResourcePolicy<object>>(Policy: ServicePolicyClass<P>, caller: TokenCaller, permissions: Permissions): P {
  return new Policy(policyContextOf(caller, permissions));
}
