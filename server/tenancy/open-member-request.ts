import { authenticationOf, isSessionOfGroup, sessionOfAnotherGroup, tokenClaims } from '../auth/authenticate.js';
import { openedOnPrimary, withOpenedRequest, type OpenedRequest, type RequestOpening } from '../db/transactions/request-transaction.js';
import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import type { GatehouseContext, GroupState, MemberState, Stage, TenantMemberState } from '../http/state.js';
import type { Services } from '../services.js';
import { memberPermissions, permissionReads } from '../permissions/load-permissions.js';
import { reopen, type ReadAhead } from '../db/transactions/read-ahead.js';
import { inTenantTransaction, replicaReadOpeningSql, tenantOpeningSql } from '../db/transactions/tenant-transaction.js';
import type { ReplicaSet } from '../db/replicas/replica-set.js';
import { keepsWritePosition, keepWritePosition, READS } from '../db/replicas/session-write-position.js';
import type { Executor } from '../db/repositories/executor.js';
import { tenantStatements } from '../db/transactions/tenant-statements.js';
import type { TokenClaims } from '../auth/token-service.js';
import { organizationIds } from './organization-ids.js';
import { accessGuesses, accessReader } from './access-guesses.js';
import type { AccessPlans } from '../data/record-access.js';
import type { ReadingCaller, RequestReads } from './request-reads.js';
import { organizationSlug } from './organization-slug.js';
import { SLUG } from '../models/slug.js';
import type { RouteGroup } from '../models/route-group.js';
import { sqlStateOf } from '../db/connection/statement-failure.js';
import { ReplicaWriteError } from '../errors/replica-write-error.js';

// What a write answers in a read-only transaction: on a replica, a handler's write, not an unreachable database.
const READ_ONLY_SQL_TRANSACTION = '25006';

type MemberFacts = Pick<MemberState, 'auth' | 'trx' | 'organization' | 'membership'>;
type TenantMemberFacts = Pick<TenantMemberState, 'auth' | 'trx' | 'organization' | 'membership'>;

/**
 * A signed-in member's request, opened in one round trip: the tenant transaction's opening also
 * checks the session, the route group membership, the organization and the membership in it
 * (`db/transactions/request-transaction.ts`), and the rest of the request runs in that transaction. Every fact comes
 * from the database on every request, so a logout or a removed membership counts at once.
 *
 * The facts are turned into statuses here, in the documented order: authentication (401), route
 * group membership (403), organization (404, also for a non-member).
 *
 * With `reads`, a route that knows what it reads sends its statements (and COMMIT) with the
 * opening: they rely on the context the opening sets, never on its answer, and what they read
 * stays unread unless every check here and the handler's own gates pass. A statement whose SQL
 * depends on the organization is built on the id its slug named the last time; when the opening
 * finds another, the request reads again in a transaction of its own.
 */
async function openRequest(ctx: GatehouseContext<GroupState>, services: Services, rest: (facts: MemberFacts) => Promise<void>, reads?: RequestReads): Promise<void> {
  const group = ctx.state.routeGroup;
  const claims = await tokenClaims(ctx, services);
  if (!claims) throw new UnauthenticatedError();
  const ofGroup = isSessionOfGroup(group, claims);
  const slug = group.tenancy === 'none' ? null : organizationSlug(ctx, group);
  const opening = {
    sessionId: claims.sessionId,
    userId: claims.userId,
    claimedRouteGroup: claims.routeGroup,
    openContext: ofGroup,
    routeGroup: group.name,
    organizationSlug: slug !== null && SLUG.test(slug) ? slug : null,
  };
  const guessedOrganization = opening.organizationSlug === null ? (group.tenancy === 'none' ? null : undefined) : organizationIds.get(opening.organizationSlug);
  const reader = accessReader(group.name, opening.organizationSlug, claims.userId);
  const guessedPlans = opening.organizationSlug === null ? undefined : accessGuesses.get(reader);
  const caller = { userId: claims.userId, group, organizationSlug: opening.organizationSlug, organizationId: guessedOrganization, plans: guessedPlans };
  const judge = (opened: OpenedRequest) => judgedFacts(ctx, services, claims, opening, opened);
  try {
    // Within the caller's share of the pool, known before a connection is taken: the user its
    // signed token names, and the organization its URL names once the user is known as one of its
    // members (`known-members.ts`), so outsiders never fill an organization's share.
    const member = opening.organizationSlug !== null && services.knownMembers.has(group.name, opening.organizationSlug, claims.userId);
    const holders = { organization: member ? opening.organizationSlug : null, user: String(claims.userId), address: null };
    if (services.replicas && READS.has(ctx.method) && ofGroup && group.tenancy !== 'none') {
      const { replicas } = services;
      await services.fairShares.hold(holders, ctx.state.deadline.caller, () =>
        readOnReplica(ctx, services, replicas, opening, judge, (facts) => readAhead(services, ctx, { ...caller, organizationId: facts.organization.id, plans: conditionedPlans(services, facts, group) }, reads), rest),
      );
      return;
    }
    const ahead = ofGroup ? readAhead(services, ctx, caller, reads) : undefined;
    await services.fairShares.hold(holders, ctx.state.deadline.caller, () => withOpenedRequest(services.db, opening, ctx.state.deadline, async (trx, opened) => {
      const facts = judge(opened);
      if (facts.organization && facts.membership) {
        const plans = conditionedPlans(services, { ...facts, organization: facts.organization, membership: facts.membership }, group);
        if (plans) accessGuesses.set(reader, plans);
        else if (guessedPlans) accessGuesses.delete(reader);
        // Read ahead for another organization than the slug names now, or with other record
        // conditions than this member's permissions add now: read again in a transaction of its
        // own, its statements planned on what the opening found.
        const wrongGuess = guessedOrganization !== undefined && guessedOrganization !== facts.organization.id;
        if (ahead?.complete && (wrongGuess || plans !== guessedPlans)) {
          const planned = readAhead(services, ctx, { ...caller, organizationId: facts.organization.id, plans }, reads);
          await reopen(trx, tenantOpeningSql({ organizationId: facts.organization.id, userId: claims.userId }, ctx.state.deadline), planned);
        }
      }
      await rest({ ...facts, trx });
    }, ahead));
    if (keepsWritePosition(ctx, services)) await keepWritePosition(services, claims.sessionId, ctx.state.deadline);
  } finally {
    // The transaction has ended: nothing after this stage may reach it through the state.
    Reflect.deleteProperty(ctx.state, 'trx');
  }
}

/**
 * The opening's facts turned into statuses, in the documented order: authentication (401), route
 * group membership (403), organization (404, also for a non-member).
 */
function judgedFacts(ctx: GatehouseContext<GroupState>, services: Services, claims: TokenClaims, opening: RequestOpening, opened: OpenedRequest): Omit<MemberFacts, 'trx'> {
  const group = ctx.state.routeGroup;
  if (!opened.session) throw new UnauthenticatedError();
  if (!opening.openContext) throw sessionOfAnotherGroup(services, claims);
  const auth = authenticationOf(claims, opened.session);
  // Known before the checks below refuse: the decision log names the caller of a refusal.
  Object.assign(ctx.state, { auth });
  // What the next request of this caller counts against: before the refusals, which end here.
  if (opening.organizationSlug !== null) services.knownMembers.note(group.name, opening.organizationSlug, claims.userId, opened.membership !== null);
  if (services.config.membershipEnforcement && !opened.groupMember) throw new NotGroupMemberError();
  if (group.tenancy === 'none') return { auth };
  if (!opened.organization || !opened.membership) throw new OrganizationNotFoundError();
  const { membership, organization } = opened;
  organizationIds.set(organization.slug, organization.id);
  return {
    auth,
    organization,
    membership: {
      roleId: membership.role_id,
      roleSlug: membership.role_slug,
      rolePermissions: membership.role_permissions,
      granted: membership.granted_permissions,
      denied: membership.denied_permissions,
    },
  };
}

/**
 * A member's read served by a replica (`docs/operations/replicas.md`). The opening's checks run on
 * the primary, so whatever took access away is refused at once however far replicas lag; the
 * route's own reads then run on a replica that has replayed the session's last write and lags
 * within the bound, else on the primary. A replica whose connection fails before the read began
 * is skipped, and the read runs on the primary.
 */
async function readOnReplica(
  ctx: GatehouseContext<GroupState>,
  services: Services,
  replicas: ReplicaSet,
  opening: RequestOpening,
  judge: (opened: OpenedRequest) => Omit<MemberFacts, 'trx'>,
  plan: (facts: Required<Omit<TenantMemberFacts, 'trx'>>) => ReadAhead | undefined,
  rest: (facts: MemberFacts) => Promise<void>,
): Promise<void> {
  const { opened, writtenAt } = await openedOnPrimary(services.db, opening, ctx.state.deadline);
  const facts = judge(opened) as Required<Omit<TenantMemberFacts, 'trx'>>;
  const context = { organizationId: facts.organization.id, userId: facts.auth.user.id };
  const read = (db: Executor) => {
    let began = false;
    const { deadline } = ctx.state;
    const done = inTenantTransaction(db, replicaReadOpeningSql(context, deadline), (trx) => ((began = true), rest({ ...facts, trx })), { ahead: plan(facts), caller: deadline.caller });
    return { done, began: () => began };
  };
  const replica = replicas.choose(writtenAt);
  if (!replica) return read(services.db).done;
  const attempt = read(replica.db);
  try {
    await attempt.done;
  } catch (error) {
    if (attempt.began()) throw sqlStateOf(error) === READ_ONLY_SQL_TRANSACTION ? new ReplicaWriteError(ctx.method, ctx.path, error) : error;
    replicas.lost(replica);
    await read(services.db).done;
  } finally {
    if (attempt.began()) replicas.served(replica);
  }
}

/**
 * The plans of a member's record conditions, which its statements add; undefined where its
 * permissions hold none. The permissions compiled here are the request's: the stage that loads
 * them finds them (`memberPermissions`).
 */
function conditionedPlans(services: Services, facts: Required<Omit<TenantMemberFacts, 'trx'>>, routeGroup: RouteGroup): AccessPlans | undefined {
  const compiled = memberPermissions(services, { ...facts, routeGroup });
  return compiled.conditioned ? compiled.plan : undefined;
}

/** A member of the route group, in the addressed organization where the group has tenancy. */
export function openMemberRequest(services: Services, reads?: RequestReads): Stage<GroupState, MemberFacts> {
  return (ctx, next) => openRequest(ctx, services, next, reads);
}

/** A member acting in the addressed organization: for the routes only tenant bases serve. */
export function openTenantMemberRequest(services: Services, reads?: RequestReads): Stage<GroupState, TenantMemberFacts> {
  return (ctx, next) =>
    openRequest(
      ctx,
      services,
      ({ organization, membership, ...facts }) => {
        if (!organization || !membership) throw new OrganizationNotFoundError();
        return next({ ...facts, organization, membership });
      },
      reads,
    );
}

/**
 * The permissions' statements and the route's, when the route can plan them. A request the route
 * cannot plan (a query string it will refuse, among others) reads as it goes: its handler then
 * meets the same refusal after the checks, in their order.
 */
function readAhead(services: Services, ctx: GatehouseContext<GroupState>, caller: ReadingCaller, reads: RequestReads | undefined): ReadAhead | undefined {
  let planned: ReadAhead | null;
  try {
    planned = reads?.(ctx, caller) ?? null;
  } catch {
    planned = null;
  }
  if (!planned) return undefined;
  return { statements: [...permissionReads(tenantStatements(services.db), caller), ...planned.statements], complete: planned.complete };
}
