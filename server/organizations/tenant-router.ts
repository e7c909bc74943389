import Router from '@koa/router';
import type { GatehouseState } from '../http/state.js';
import { invitationsRouter } from '../invitations/invitations-router.js';
import { memberContext, signedIn } from '../route-groups/request-context.js';
import { listRoles } from '../roles/list-roles.js';
import { userRole } from '../roles/user-role.js';
import type { Services } from '../services.js';
import { fetchOrganizations } from './fetch-organizations.js';
import { organizationExists } from './organization-exists.js';

/**
 * The tenant-only operations under `{t}` (a base ending in `/:organization`). The slug check is
 * open to any signed-in caller; everything else needs membership of the organization.
 */
export function tenantRouter(services: Services): Router<GatehouseState> {
  const router = new Router<GatehouseState>();
  router.get('/organizations/exists', ...signedIn(services), organizationExists(services));
  const member = new Router<GatehouseState>();
  member.use(...memberContext(services));
  member.get('/organizations', fetchOrganizations());
  member.get('/roles', listRoles());
  member.get('/user-role', userRole());
  member.use('/invitations', invitationsRouter(services).routes());
  router.use(member.routes());
  return router;
}
