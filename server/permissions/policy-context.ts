import type { PolicyContext } from '@gatehouse/engine';
import type { AuthUser, DataState, GatehouseContext } from '../http/state.js';

/** What a resource policy sees of the request: caller, permissions, role, organization, group. */
export function policyContext(ctx: GatehouseContext<DataState>): PolicyContext & { readonly user: AuthUser | null } {
  const { role, ability } = ctx.state.authorization;
  const organization = ctx.state.organization;
  return {
    user: ctx.state.auth?.user ?? null,
    ability,
    role,
    organization: organization ? { id: organization.id, slug: organization.slug } : null,
    routeGroup: ctx.state.routeGroup?.name ?? null,
  };
}
