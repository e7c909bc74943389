import { compileAbility, type PolicyContext, type ResourcePolicy } from '@gatehouse/engine';
import type { Permissions } from './permissions-cache.js';
import type { TokenCaller } from './token-verifier.js';

/** A `ResourcePolicy` subclass of the service's own, for its own resources. */
export type ServicePolicyClass<P extends ResourcePolicy<object>> = new (context: PolicyContext) => P;

/**
 * The policy context Gatehouse's own data routes would build for the caller: their permissions
 * in the organization compiled by `@gatehouse/engine`, their role, the organization. A service's
 * policy then checks `invoices.store` exactly as Gatehouse checks `posts.store`.
 */
export function policyContextOf(caller: TokenCaller, permissions: Permissions): PolicyContext {
  return {
    user: { id: caller.userId },
    ability: compileAbility(permissions.permissions),
    role: permissions.role,
    organization: permissions.organization,
    routeGroup: caller.routeGroup,
  };
}

export function bindPolicy<P extends ResourcePolicy<object>>(Policy: ServicePolicyClass<P>, caller: TokenCaller, permissions: Permissions): P {
  return new Policy(policyContextOf(caller, permissions));
}
