import { authenticate, authenticateAnyGroup, authenticateIfPresent } from '../auth/authenticate.js';
import { RequestChain } from '../http/request-chain.js';
import type { DataState, GroupState, MemberState, RequestState, SessionState, SignedInState, TenantMemberState } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';
import type { RequestReads } from '../tenancy/request-reads.js';
import { loadPermissions } from '../permissions/load-permissions.js';
import type { Services } from '../services.js';
import { openMemberRequest, openTenantMemberRequest } from '../tenancy/open-member-request.js';
import { requireGroupMembership } from '../tenancy/require-group-membership.js';
import { resolveOrganization } from '../tenancy/resolve-organization.js';
import { holdAddressShare } from '../tenancy/hold-address-share.js';
import { holdCallerShare } from '../tenancy/hold-caller-share.js';
import { openTenantTransaction } from '../tenancy/open-tenant-transaction.js';

// Every request chain of the server, each typed by the state it establishes: a route mounts its
// handlers with `chain.before(...)`, which takes only handlers that need no more than that state.
//
// The order of checks is the same in each: authentication (401), route group membership (403),
// organization (404); permissions are loaded last, for the handler's own checks. Whether the
// session stands and whether its user is a group member are decided once, by the request's
// opening in the database (`db/transactions/request-transaction.ts`): a member's request makes all three checks in
// its tenant transaction's opening (one round trip), a signed-in one asks the same opening
// without an organization.
//
// Every chain that takes a pooled connection takes its caller's fair share of the pool first
// (`tenancy/fair-shares.ts`), once: a member's in its request's opening, the others in their first
// stage (the user's share with a session, the client address's without).

/** Anyone, no session asked (sign-in, registration, password recovery; a guest's data requests start so too). */
export const anonymous = (services: Services): RequestChain<GroupState, GroupState> => RequestChain.from<GroupState>().then(holdAddressShare(services));

/** Outside the route groups, any live session of any group (401 otherwise). */
export const anySession = (services: Services): RequestChain<RequestState, SessionState> =>
  RequestChain.from<RequestState>().then(holdCallerShare(services)).then(authenticateAnyGroup(services));

/** Outside the route groups, guests too; a token, when sent, must be valid. */
export const optionalSession = (services: Services): RequestChain<RequestState, RequestState & Partial<SessionState>> =>
  RequestChain.from<RequestState>().then(holdCallerShare(services)).then(authenticateIfPresent(services));

/** A live session of the request's route group, member or not (a denied member can still sign out). */
export const groupSession = (services: Services): RequestChain<GroupState, SignedInState> =>
  RequestChain.from<GroupState>().then(holdCallerShare(services)).then(authenticate(services));

/** A signed-in caller of the route group. */
export const signedIn = (services: Services): RequestChain<GroupState, SignedInState> => groupSession(services).then(requireGroupMembership(services));

/** A signed-in member acting in the addressed organization (or in a non-tenant group). */
export const member = (services: Services, reads?: RequestReads): RequestChain<GroupState, MemberState> =>
  RequestChain.from<GroupState>().then(openMemberRequest(services, reads)).then(loadPermissions(services));

/** A signed-in member acting in the addressed organization, for the routes only tenant bases serve. */
export const tenantMember = (services: Services, reads?: RequestReads): RequestChain<GroupState, TenantMemberState> =>
  RequestChain.from<GroupState>().then(openTenantMemberRequest(services, reads)).then(loadPermissions(services));

/**
 * Anyone, with no permissions, in the organization the request addresses: data requests of a group
 * without auth. Within its client address's share of the pool from the start, its lookup of the organization included.
 */
export const guest = (services: Services): RequestChain<GroupState, DataState> =>
  anonymous(services).then(resolveOrganization(services)).then(openTenantTransaction(services)).then(loadPermissions(services));

/** Data requests: members in groups with auth, anyone (with no permissions) in groups without. */
export function dataChain(group: RouteGroup, services: Services, reads?: RequestReads): RequestChain<GroupState, DataState> {
  return group.auth ? member(services, reads) : guest(services);
}
