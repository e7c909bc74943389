import { CompiledQuery, type Kysely } from 'kysely';
import type { CallerPresence } from '../connection/caller-presence.js';

/**
 * Statements a transaction sends with its opening, before anything it learns from the opening's
 * answer: a read's statements, and the COMMIT when they are all it will send (`complete`). They
 * depend on the request alone; the tenant context they run under is the one the opening sets in
 * the same transaction. The statement client answers each later query of the same text and values
 * from them, so the code that reads them runs exactly as when it sends them itself.
 */
export interface ReadAhead {
  statements: readonly CompiledQuery[];
  /** Nothing else will be sent before the end of the transaction: COMMIT travels with them. */
  complete: boolean;
}

/** Kysely hands a connection's queries to the pg client as text and values: the read-ahead travels as the one value of this text. */
export const READ_AHEAD = '-- gatehouse: read ahead';

/**
 * BEGIN, then one statement with parameters that the connection prepares once: PostgreSQL neither
 * parses nor plans it again, and its rows' description is not sent again (`statement-batch.ts`).
 * It keeps a Sync of its own, so what it sets (the statement_timeout) holds for the statements
 * after it.
 */
export interface PreparedOpening {
  begin: string;
  statement: CompiledQuery;
  /** Its name on every connection (where statements are prepared): it says what it is on the wire and in `pg_prepared_statements`. */
  name: string;
}

/** How a transaction opens: one simple-protocol text (BEGIN and what travels with it), or a prepared opening. */
export type Opening = string | PreparedOpening;

/** What the pg client receives: the transaction's opening, if it is not sent yet, and what follows it. */
export interface OpeningAhead extends ReadAhead {
  opening: Opening | null;
  /**
   * With an opening: the presence of the client the transaction's request answers. Until the transaction's
   * COMMIT or ROLLBACK, a caller that goes away cancels the statement the connection is running.
   */
  caller?: CallerPresence;
  /** Without an opening: what opens a new transaction for the statements when the COMMIT of this one is on its way without them. */
  reopening?: string;
}

const NOTHING_AHEAD: ReadAhead = { statements: [], complete: false };

/** The query that sends `opening` and `ahead` (default: nothing) in one write, watching `caller`; it answers the opening. */
export function readAheadQuery(opening: Opening, ahead: ReadAhead = NOTHING_AHEAD, caller?: CallerPresence): CompiledQuery {
  const sent: OpeningAhead = { opening, ...ahead, ...(caller === undefined ? {} : { caller }) };
  return CompiledQuery.raw(READ_AHEAD, [sent]);
}

/**
 * A read's last statements and its transaction's COMMIT in one write, once what they depend on is
 * known; the reader then runs them as usual and gets their answers. Only for a transaction that
 * has written nothing and will send nothing else: its end is on its way. Statements sent ahead
 * are not sent again: when all of them were, with COMMIT, nothing is written.
 *
 * `reopening` is for a read that planned its statements on a guess (an audit trail's readable
 * fields): when the guess was wrong and the COMMIT sent ahead has ended its transaction, the
 * statements go in a new one opened by it, on the same connection, in one more round trip.
 * Without it, that is a StatementAfterCommitError.
 */
export async function sendLastReads(trx: Pick<Kysely<unknown>, 'executeQuery'>, statements: readonly CompiledQuery[], reopening?: string): Promise<void> {
  const sent: OpeningAhead = { opening: null, statements, complete: true, ...(reopening === undefined ? {} : { reopening }) };
  await trx.executeQuery(CompiledQuery.raw(READ_AHEAD, [sent]));
}

/** How a write runs: with `last`, it is its transaction's last statement and its COMMIT travels with it. */
export interface LastWrite {
  last?: boolean;
}

/**
 * Runs a write and answers its rows. With `last` the write and its transaction's COMMIT go in
 * one write on the wire (its audit row in the same statement), sent as a read's last statements
 * are: if it fails, the transaction is aborted and the COMMIT answers as a rollback; if it
 * touches nothing, nothing is committed; the request answers as when it sends COMMIT itself.
 */
export async function runWrite<Row>(trx: Pick<Kysely<unknown>, 'executeQuery'>, statement: CompiledQuery, { last = false }: LastWrite = {}): Promise<Row[]> {
  if (last) await sendLastReads(trx, [statement]);
  return (await trx.executeQuery<Row>(statement)).rows;
}

/**
 * Ends a transaction whose complete read-ahead was planned on what turned out wrong (a guessed
 * organization, or record conditions): its COMMIT is on its way, its answers are thrown away
 * unread, and `opening` opens a new transaction on the same connection, with `ahead` (planned on
 * what the opening found) or, without it, for the read to go as it would without a read-ahead.
 */
export async function reopen(trx: Pick<Kysely<unknown>, 'executeQuery'>, opening: string, ahead?: ReadAhead): Promise<void> {
  await trx.executeQuery(readAheadQuery(opening, ahead));
}

/** Asks the statement client whether a read's statements all travel with its opening: see sentAhead. */
export const SENT_AHEAD = '-- gatehouse: sent ahead?';

/**
 * Whether every one of `statements` travels, unread, with its transaction's opening and COMMIT:
 * then they read the one snapshot the opening's (`request-transaction.ts`). For a reader whose
 * statements must find the same rows as each other (include hops reading their parents again);
 * nothing is sent.
 */
export async function sentAhead(trx: Pick<Kysely<unknown>, 'executeQuery'>, statements: readonly CompiledQuery[]): Promise<boolean> {
  const { rows } = await trx.executeQuery<{ sent: boolean }>(CompiledQuery.raw(SENT_AHEAD, [statements]));
  return rows[0]?.sent === true;
}

/** A statement sent after the read-ahead's COMMIT would run outside its transaction and its tenant context. */
export class StatementAfterCommitError extends Error {
  constructor(text: string) {
    super(`A statement was sent after its transaction's COMMIT was: ${text.slice(0, 80)}`);
  }
}
