import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type Kysely } from 'kysely';

/** What an HTTP request sets for the transactions it opens (`http/request-deadline.ts`). */
export interface RequestDeadline {
  /** The `statement_timeout` of each of its transactions, in milliseconds. */
  readonly statementTimeoutMs: number;
  /** Aborted when the client goes away before its answer: the statement running for it is cancelled. */
  readonly signal: AbortSignal;
}

/** The deadline of the request running now; none outside requests (the CLI, background tasks). */
export const requestDeadlines = new AsyncLocalStorage<RequestDeadline>();

/**
 * The request's statement_timeout as more columns of a transaction's opening SELECT, set
 * transaction-locally so a pooled connection never carries it into other work; nothing outside
 * a request. It counts from the opening's next statement.
 */
export function deadlineColumns(): string {
  const deadline = requestDeadlines.getStore();
  if (deadline === undefined) return '';
  if (!Number.isSafeInteger(deadline.statementTimeoutMs)) throw new TypeError(`Not a statement timeout: ${deadline.statementTimeoutMs}`);
  return `, set_config('statement_timeout', '${deadline.statementTimeoutMs}', true)`;
}

/** Tells the statement client to cancel the connection's running statement when `signal` aborts; a value, never sent. */
export const WATCH_CALLER = '-- gatehouse: cancel when the caller leaves';

/** Stops watching, once a cancel already sent has reached the server: none may follow the connection into other work. */
export const UNWATCH_CALLER = '-- gatehouse: stop watching the caller';

/**
 * Runs fn with the connection's statements cancelled when the request's client goes away (see
 * RequestDeadline.signal); outside a request, just fn. Once fn is done, a cancel already sent has
 * reached the server before anything else is sent on the connection (the transaction's end).
 */
export async function cancelledWhenCallerLeaves<T>(connection: Pick<Kysely<unknown>, 'executeQuery'>, fn: () => Promise<T>): Promise<T> {
  const signal = requestDeadlines.getStore()?.signal;
  if (signal === undefined) return fn();
  await connection.executeQuery(CompiledQuery.raw(WATCH_CALLER, [signal]));
  try {
    return await fn();
  } finally {
    await connection.executeQuery(CompiledQuery.raw(UNWATCH_CALLER));
  }
}
