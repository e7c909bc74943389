import type { PolicyContext } from '@gatehouse/engine';
import { required, type AuthUser, type GatehouseContext } from '../http/state.js';

/** What a resource policy sees of the request: caller, permissions, role, organization, group. */
export function policyContext(ctx: GatehouseContext): PolicyContext & { readonly user: AuthUser | null } {
  const { role, ability } = required(ctx, 'authorization');
  const organization = ctx.state.organization;
  return {
    user: ctx.state.auth?.user ?? null,
    ability,
    role,
    organization: organization ? { id: organization.id, slug: organization.slug } : null,
    routeGroup: ctx.state.routeGroup?.name ?? null,
  };
}
