import Router from '@koa/router';
import { authRouter } from '../auth/auth-router.js';
import { chain } from '../http/chain.js';
import type { GatehouseRoutes, GatehouseState } from '../http/state.js';
import { createOrganization } from '../organizations/create-organization.js';
import { tenantRouter } from '../organizations/tenant-router.js';
import { userRole } from '../roles/user-role.js';
import type { Services } from '../services.js';
import { bindRouteGroup } from './bind-route-group.js';
import { dataContext, memberContext, signedIn } from './request-context.js';
import { dataBases, groupBases, tenantBases, type RouteGroup } from './route-group.js';

/**
 * Everything one route group serves below the base path: its auth set, organization creation,
 * the tenant-only operations, and the data routes of the configured factory behind the group's
 * request context.
 *
 * Each base gets a router of its own. A router runs its middleware only when one of its own
 * routes matches, so the request context of `/:organization` never runs for a path that only
 * `/{group}/:organization` serves.
 */
export function groupRoutes(group: RouteGroup, services: Services): GatehouseRoutes {
  const routers: Router<GatehouseState>[] = [];
  const under = (base: string) => {
    const router = new Router<GatehouseState>({ prefix: `${services.config.basePath}${base}` }).use(bindRouteGroup(group));
    routers.push(router);
    return router;
  };

  if (group.auth) {
    for (const base of groupBases(group)) {
      const router = under(base).use('/auth', authRouter(services, base === '' ? null : group.name).routes());
      if (group.tenancy !== 'none') router.post('/organizations', ...signedIn(services), createOrganization(services));
    }
    for (const base of tenantBases(group)) under(base).use(tenantRouter(services).routes());
    // A non-tenant group has no tenant operations, but its members still need their rules.
    if (group.tenancy === 'none') for (const base of dataBases(group)) under(base).get('/user-role', ...memberContext(services), userRole());
  }

  // Data routes take any segment as a model, so under `/:organization` the path `/tenant/acme/posts`
  // would read as model `acme` of organization `tenant`: bases that open with a literal go first.
  const data = services.config.dataRoutes?.(group);
  const literalFirst = (base: string) => (base.startsWith('/:') ? 1 : 0);
  const bases = [...dataBases(group)].sort((a, b) => literalFirst(a) - literalFirst(b));
  if (data) for (const base of bases) under(base).use(...dataContext(group, services)).use(data.routes());

  return chain(routers.map((router) => router.routes()));
}
