import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { PreparedOpening, ReadAhead } from './read-ahead.js';
import type { MembershipRecord } from '../repositories/memberships.js';
import type { Schema } from '../schema.js';
import { inTenantTransaction, type TenantTransaction } from './tenant-transaction.js';
import { statementTimeoutColumn, type RequestDeadline } from './request-deadline.js';
import { runWithinDeadline } from './request-read.js';
import { walPosition, type WalPosition } from '../replicas/wal-position.js';

export interface RequestOpening {
  /** From the token's verified claims. */
  sessionId: string;
  userId: number;
  claimedRouteGroup: string | null;
  /** False when the token is of another route group: only the session is checked, nothing is set. */
  openContext: boolean;
  routeGroup: string;
  /** Null for tenancy `none` and for a slug that names nothing. */
  organizationSlug: string | null;
}

/** What the opening learned; each fact is there only when the ones before it hold. */
export interface OpenedRequest {
  session: { userName: string; userEmail: string } | null;
  groupMember: boolean;
  organization: { id: number; name: string; slug: string } | null;
  membership: MembershipRecord | null;
}

interface OpeningRow {
  session_valid: boolean;
  user_name: string | null;
  user_email: string | null;
  group_member: boolean;
  organization_id: number | null;
  organization_name: string | null;
  role_id: number | null;
  role_slug: string | null;
  role_permissions: string[] | null;
  granted_permissions: string[] | null;
  denied_permissions: string[] | null;
}

/**
 * A read whose statements all travel with the opening reads one snapshot: its include hops read
 * their parents again as a subquery (`listing/load-includes.ts`), and must find the rows the page
 * found, whatever commits in between. It writes nothing, so it never fails to serialize.
 */
const beginFor = (ahead: ReadAhead | undefined) => (ahead?.complete ? 'BEGIN ISOLATION LEVEL REPEATABLE READ' : 'BEGIN');

/** The SQL function of the opening's checks (`sql/009_open_request.sql`); its prepared statement takes its name. */
const OPEN_REQUEST = 'gatehouse_open_request';

/** The opening's checks as one call, its arguments in the order of `openRequestArguments`. */
const OPEN_REQUEST_CALL = `${OPEN_REQUEST}($1::uuid, $2::integer, $3::text, $4::boolean, $5::text, $6::text)`;

const openRequestArguments = (opening: SessionOpening & { organizationSlug: string | null }) => [
  opening.sessionId,
  opening.userId,
  opening.claimedRouteGroup,
  opening.openContext,
  opening.routeGroup,
  opening.organizationSlug,
];

/** The opening's statement: its checks, and the request's statement_timeout (`request-deadline.ts`) as its last argument. */
const OPENING_STATEMENT = `SELECT *, ${statementTimeoutColumn('$7')} FROM ${OPEN_REQUEST_CALL}`;

/** A request's opening, its checks a statement every connection prepares once. */
function requestOpening(opening: RequestOpening, ahead: ReadAhead | undefined, deadline: RequestDeadline): PreparedOpening {
  const statement = CompiledQuery.raw(OPENING_STATEMENT, [...openRequestArguments(opening), String(deadline.statementTimeoutMs)]);
  return { begin: beginFor(ahead), statement, name: OPEN_REQUEST };
}

function openedRequest(row: OpeningRow, slug: string | null): OpenedRequest {
  const organization = row.organization_id !== null ? { id: row.organization_id, name: row.organization_name!, slug: slug! } : null;
  return {
    session: row.session_valid ? { userName: row.user_name!, userEmail: row.user_email! } : null,
    groupMember: row.group_member,
    organization,
    membership:
      row.role_id !== null
        ? {
            role_id: row.role_id,
            role_slug: row.role_slug!,
            role_permissions: row.role_permissions ?? [],
            granted_permissions: row.granted_permissions ?? [],
            denied_permissions: row.denied_permissions ?? [],
          }
        : null,
  };
}

/**
 * Opens a request's tenant transaction and checks its caller in the same round trip (see
 * sql/009_open_request.sql): the session, the route group membership, the organization and the
 * membership in it, with the tenant context set only as far as they hold. fn decides what the
 * facts mean; whatever it throws rolls the transaction back. `ahead`: the statements fn will
 * read, sent with the opening (`read-ahead.ts`); they run under the context the opening sets, so
 * before a refused opening they read as nobody, and fn never reads them.
 */
export async function withOpenedRequest<T>(
  db: Kysely<Schema>,
  opening: RequestOpening,
  deadline: RequestDeadline,
  fn: (trx: TenantTransaction, opened: OpenedRequest) => Promise<T>,
  ahead?: ReadAhead,
): Promise<T> {
  const opened = (trx: TenantTransaction, rows: Record<string, unknown>[]) => fn(trx, openedRequest(rows[0] as unknown as OpeningRow, opening.organizationSlug));
  return inTenantTransaction(db, requestOpening(opening, ahead, deadline), opened, { ahead, caller: deadline.caller });
}

/** Who a signed-in request's opening asks about: the token's claims and the request's route group, if any. */
export type SessionOpening = Omit<RequestOpening, 'routeGroup' | 'organizationSlug'> & { routeGroup: string | null };

/**
 * The session and route group facts of the same opening, for a request that needs no tenant
 * transaction: in a transaction of its own within the request's deadline, whose end ends the
 * settings the call makes.
 */
export async function openedSession(db: Kysely<Schema>, opening: SessionOpening, deadline: RequestDeadline): Promise<Pick<OpenedRequest, 'session' | 'groupMember'>> {
  const call = CompiledQuery.raw(`SELECT * FROM ${OPEN_REQUEST_CALL}`, openRequestArguments({ ...opening, organizationSlug: null }));
  const [row] = await runWithinDeadline<OpeningRow>(db, call, deadline);
  const { session, groupMember } = openedRequest(row!, null);
  return { session, groupMember };
}

/**
 * Every fact of the opening, read on the primary, for a read a replica then serves: a revoked
 * session, a removed member or a withdrawn permission is refused on the very next request, however
 * far the replicas lag. With the WAL position of the session's last write, which the replica must
 * have replayed before it may answer. Within the request's deadline, as `openedSession`.
 */
export async function openedOnPrimary(db: Kysely<Schema>, opening: RequestOpening, deadline: RequestDeadline): Promise<{ opened: OpenedRequest; writtenAt: WalPosition | null }> {
  const call = CompiledQuery.raw(
    `SELECT opening.*, (SELECT write_lsn::text FROM sessions WHERE id = $1::uuid) AS write_lsn FROM ${OPEN_REQUEST_CALL} AS opening`,
    openRequestArguments(opening),
  );
  const row = (await runWithinDeadline<OpeningRow & { write_lsn: string | null }>(db, call, deadline))[0]!;
  return { opened: openedRequest(row, opening.organizationSlug), writtenAt: row.write_lsn === null ? null : walPosition(row.write_lsn) };
}

/** Keeps the primary's WAL position, after a session's write committed, for the read-your-writes of its next reads. */
export async function noteSessionWrite(db: Kysely<Schema>, sessionId: string, deadline: RequestDeadline): Promise<void> {
  await runWithinDeadline(db, sql`UPDATE sessions SET write_lsn = greatest(write_lsn, pg_current_wal_lsn()) WHERE id = ${sessionId}::uuid`.compile(db), deadline);
}
