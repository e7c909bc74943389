import type { CallerPresence } from '../connection/caller-presence.js';

/**
 * What an HTTP request sets for the transactions it opens (`http/request-deadline.ts`). It is
 * handed to them as a value, never through an async context: an AsyncLocalStorage in the request
 * path makes every promise of every request pay for its hooks.
 */
export interface RequestDeadline {
  /** The `statement_timeout` of each of its transactions, in milliseconds. */
  readonly statementTimeoutMs: number;
  /** Left when the client goes away before its answer: the statement running for it is cancelled. */
  readonly caller: CallerPresence;
}

/**
 * The request's statement_timeout as more columns of a transaction's opening SELECT, set
 * transaction-locally so a pooled connection never carries it into other work; nothing without
 * a deadline (the CLI, background tasks). It counts from the opening's next statement.
 */
export function deadlineColumns(deadline: RequestDeadline | undefined): string {
  if (deadline === undefined) return '';
  if (!Number.isSafeInteger(deadline.statementTimeoutMs)) throw new TypeError(`Not a statement timeout: ${deadline.statementTimeoutMs}`);
  return `, ${statementTimeoutColumn(`'${deadline.statementTimeoutMs}'`)}`;
}

/** The column that sets the statement_timeout to `milliseconds` (an SQL text expression). */
export const statementTimeoutColumn = (milliseconds: string) => `set_config('statement_timeout', ${milliseconds}, true)`;
