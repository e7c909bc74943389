import type { GatehouseContext, GroupState } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';

/**
 * The slug the request addresses: the path segment for path tenancy, the host for subdomain
 * tenancy. Tenant-only routes of a subdomain group carry the segment too, and it must name the
 * host's organization; a disagreement addresses nothing (null).
 */
export function organizationSlug(ctx: GatehouseContext<GroupState>, group: RouteGroup): string | null {
  const fromPath = ctx.params.organization ?? null;
  if (group.tenancy === 'path') return fromPath;
  if (group.tenancy === 'none') return null;
  const fromHost = ctx.state.hostOrganization ?? null;
  return fromPath === null || fromPath === fromHost ? fromHost : null;
}
