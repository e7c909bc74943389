import type { GatehouseContext } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';

/**
 * Marks a request as the group's once one of its routes matched, and for domain groups keeps the
 * organization the host names (read once, by host routing).
 */
export function bindRouteGroup(ctx: GatehouseContext, group: RouteGroup, hostOrganization: string | null): void {
  ctx.state.routeGroup = group;
  if (group.domain) ctx.state.hostOrganization = hostOrganization;
}
