import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { CallerPresence } from '../connection/caller-presence.js';
import { onConnection } from '../connection/connection-kysely.js';
import { APP_ROLE } from '../connection/database.js';
import { readAheadQuery, type Opening, type ReadAhead } from './read-ahead.js';
import { deadlineColumns, type RequestDeadline } from './request-deadline.js';
import { isStatementCancelled } from '../connection/statement-cancelled.js';
import type { Schema } from '../schema.js';
import type { LooseTransaction } from '../../models/loose-schema.js';

export interface TenantContext {
  organizationId: number | null;
  userId: number | null;
  /** Lets the holder of an invitation token read that one invitation outside its tenant. */
  invitationTokenHash?: string | null;
}

declare const tenantScoped: unique symbol;

/**
 * A connection inside a tenant transaction: every query on it is scoped by the context. Branded,
 * so that neither the pool (where a tenant statement reads as nobody) nor an owner's transaction
 * (which passes row-level security) type-checks as one: only the openings here that set a context
 * make it, and `tenantStatements` for statements planned ahead of it.
 */
export type TenantTransaction<S = Schema> = Kysely<S> & { readonly [tenantScoped]: true };

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * A setting as an SQL literal. Only ids and a token hash are ever written, and each is checked
 * to be exactly that, so a literal can never carry anything else; an unset setting is the empty
 * string, which the policies read as NULL.
 */
function settingLiteral(value: number | string | null | undefined): string {
  if (value == null) return "''";
  if (typeof value === 'number' && Number.isSafeInteger(value)) return `'${value}'`;
  if (typeof value === 'string' && SHA256_HEX.test(value)) return `'${value}'`;
  throw new TypeError(`Not a tenant context value: ${String(value)}`);
}

/**
 * BEGIN and the context in one simple-protocol round trip: literals, since it takes no
 * parameters. Exported for the benchmark's baseline, which must open transactions alike.
 */
export function tenantOpeningSql(context: TenantContext, deadline?: RequestDeadline): string {
  return `BEGIN; ${tenantSettingsSql(context, deadline)}`;
}

/**
 * The opening of a read a replica serves: one snapshot, as a complete read-ahead reads (its include
 * hops read their parents again), and read-only, as a standby is.
 */
export function replicaReadOpeningSql(context: TenantContext, deadline: RequestDeadline): string {
  return `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${tenantSettingsSql(context, deadline)}`;
}

function tenantSettingsSql(context: TenantContext, deadline?: RequestDeadline): string {
  return `SELECT
    set_config('gatehouse.organization_id', ${settingLiteral(context.organizationId)}, true),
    set_config('gatehouse.user_id', ${settingLiteral(context.userId)}, true),
    set_config('gatehouse.invitation_token_hash', ${settingLiteral(context.invitationTokenHash)}, true)${deadlineColumns(deadline)}`;
}

// Compiled once: they never change, and every request ends with one of them.
const COMMIT = CompiledQuery.raw('COMMIT');
const ROLLBACK = CompiledQuery.raw('ROLLBACK');

/**
 * Turns a transaction the owner opened into a tenant transaction for the rest of its life: the
 * role becomes gatehouse_app and the context is set, both transaction-locally, so the owner's
 * administration (the CLI) passes the same row-level security as requests do.
 */
export async function enterTenant(ownerTransaction: Kysely<Schema>, context: TenantContext): Promise<TenantTransaction> {
  await sql.raw(`SET LOCAL ROLE ${APP_ROLE}; ${tenantSettingsSql(context)}`).execute(ownerTransaction);
  return ownerTransaction as TenantTransaction;
}

/**
 * Gives a tenant transaction opened without an organization the one `id` yields (an SQL integer,
 * drawn there: a new organization's) for the rest of its life, and answers that id. An
 * organization's creation opens so, to check its limits before it draws an id. A transaction that
 * has an organization keeps it: this throws, drawing nothing.
 */
export async function enterOrganization(trx: TenantTransaction, id: RawBuilder<number>): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    SELECT set_config('gatehouse.organization_id', (${id})::text, true)::integer AS id
    WHERE nullif(current_setting('gatehouse.organization_id', true), '') IS NULL`.execute(trx);
  if (!rows[0]) throw new Error('This tenant transaction has an organization already.');
  return rows[0].id;
}

/** How a transaction opens besides its opening's text. */
export interface OpeningOptions {
  /** The statements fn is going to read, sent with the opening (`read-ahead.ts`). */
  ahead?: ReadAhead;
  /** The request the transaction runs for: a caller that goes away cancels its running statement. */
  caller?: CallerPresence;
}

/**
 * Runs fn in one transaction opened by `opening` (BEGIN and whatever must travel with it, in one
 * round trip); fn receives the rows of the opening's last statement. A failure
 * anywhere rolls everything back.
 *
 * With `ahead`, the statements fn is going to read (and, when they are all it reads, COMMIT)
 * travel with the opening in the same write (`read-ahead.ts`): a read then takes one round trip.
 * After a complete read-ahead the transaction has already ended with COMMIT once its answers are
 * in: on a refusal nothing was written, and the answers fn did not read are thrown away.
 *
 * In a request, the opening also sets the request's statement_timeout (`request-deadline.ts`),
 * and with `caller` a client that goes away cancels the running statement: either fails it, and
 * so rolls back.
 */
export function inOpenedTransaction<T, S = Schema>(
  db: Kysely<S>,
  opening: Opening,
  fn: (trx: Kysely<S>, opened: Record<string, unknown>[]) => Promise<T>,
  { ahead, caller }: OpeningOptions = {},
): Promise<T> {
  return onConnection(db, async (connection) => {
    let result: T;
    try {
      const { rows } = await connection.executeQuery<Record<string, unknown>>(typeof opening === 'string' && !ahead && !caller ? CompiledQuery.raw(opening) : readAheadQuery(opening, ahead, caller));
      result = await fn(connection, rows);
    } catch (error) {
      // Also after a failed opening: a transaction left open would follow the connection back into the pool.
      // After a complete read-ahead, the statement client answers it with the COMMIT on its way.
      await endTransaction(connection, ROLLBACK);
      throw error;
    }
    await endTransaction(connection, COMMIT);
    return result;
  });
}

/**
 * Sends COMMIT or ROLLBACK. A cancel request meant for the statement before it (its caller went
 * away) may reach the server late and fail this one instead, leaving the transaction open: then
 * ROLLBACK ends it, so the connection never returns to the pool inside a transaction, and a
 * COMMIT that did not happen is still an error.
 */
async function endTransaction(connection: Pick<Kysely<unknown>, 'executeQuery'>, end: CompiledQuery): Promise<void> {
  try {
    await connection.executeQuery(end);
  } catch (error) {
    if (!isStatementCancelled(error)) throw error;
    await connection.executeQuery(ROLLBACK);
    if (end === COMMIT) throw error;
  }
}

/**
 * Runs fn in one transaction whose row-level security context is set transaction-locally, so
 * a pooled connection never carries one request's tenant into the next. Besides the request
 * opening (`request-transaction.ts`), which sets the same settings only once its checks hold, and
 * `enterOrganization` above, this is the only place in the code base that sets the context.
 */
export async function withTenant<T, S = Schema>(db: Kysely<S>, context: TenantContext, fn: (trx: TenantTransaction<S>) => Promise<T>, deadline?: RequestDeadline): Promise<T> {
  return inTenantTransaction(db, tenantOpeningSql(context, deadline), fn, { caller: deadline?.caller });
}

/**
 * `inOpenedTransaction` for an opening that sets the tenant context: `tenantOpeningSql`, a replica
 * read's, or a request's, which sets it as far as its checks hold.
 */
export function inTenantTransaction<T, S = Schema>(
  db: Kysely<S>,
  opening: Opening,
  fn: (trx: TenantTransaction<S>, opened: Record<string, unknown>[]) => Promise<T>,
  options?: OpeningOptions,
): Promise<T> {
  return inOpenedTransaction(db, opening, fn as (trx: Kysely<S>, opened: Record<string, unknown>[]) => Promise<T>, options);
}

/** The tenant transaction seen through the registered models' string-keyed schema. */
export function loose(trx: TenantTransaction): LooseTransaction {
  return trx as unknown as LooseTransaction;
}
