import type { Kysely } from 'kysely';
import type { Schema } from '../schema.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { noteSessionWrite } from '../transactions/request-transaction.js';
import type { ReplicaSet } from './replica-set.js';

/** The methods a replica may serve: everything else writes, or might, and runs on the primary. */
export const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Read your writes (`docs/operations/replicas.md`): once what a session's request wrote has
 * committed, keeps the primary's WAL position in the session's row, so the session's next reads
 * go only to a replica that has replayed it. Whatever the route: a new organization or an
 * accepted invitation is read back as surely as a record. Nothing without replicas.
 */
export async function keepWritePosition(services: { db: Kysely<Schema>; replicas: ReplicaSet | null }, sessionId: string, deadline: RequestDeadline): Promise<void> {
  if (services.replicas) await noteSessionWrite(services.db, sessionId, deadline);
}

/**
 * Whether a request keeps its session's write position once it is done: with replicas, after any
 * method a replica may not serve, unless its route says nothing read next depends on it
 * (`noWritePosition`: authorize, explain, logout). Asked before awaiting
 * anything, so that a request without replicas, or a read, does not wait a turn for nothing.
 */
export const keepsWritePosition = (request: { method: string; state: { noWritePosition?: true } }, services: { replicas: ReplicaSet | null }): boolean =>
  services.replicas !== null && !READS.has(request.method) && request.state.noWritePosition !== true;
