import { authenticate } from '../auth/authenticate.js';
import type { GatehouseMiddleware } from '../http/state.js';
import { loadPermissions } from '../permissions/load-permissions.js';
import type { Services } from '../services.js';
import { openMemberRequest } from '../tenancy/open-member-request.js';
import { resolveOrganization } from '../tenancy/resolve-organization.js';
import { tenantTransaction } from '../tenancy/tenant-transaction.js';
import { requireGroupMembership } from '../tenancy/require-group-membership.js';
import type { RouteGroup } from '../models/route-group.js';
import type { RequestReads } from '../tenancy/request-reads.js';

// The chains below fix the order of checks: authentication (401), route group membership (403),
// organization (404); permissions are loaded last, for the handler's own checks. A member's
// request makes the first three in its tenant transaction's opening (one round trip).

/** A signed-in caller of the route group. */
export function signedIn(services: Services): GatehouseMiddleware[] {
  return [authenticate(services), requireGroupMembership(services)];
}

/** A signed-in member acting in the addressed organization (or in a non-tenant group). */
export function memberContext(services: Services, reads?: RequestReads): GatehouseMiddleware[] {
  return [openMemberRequest(services, reads), loadPermissions()];
}

/** Data requests: members in groups with auth, anyone (with no permissions) in groups without. */
export function dataContext(group: RouteGroup, services: Services, reads?: RequestReads): GatehouseMiddleware[] {
  return group.auth ? memberContext(services, reads) : [resolveOrganization(services), tenantTransaction(services), loadPermissions()];
}
