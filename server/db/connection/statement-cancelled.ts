import { StatementSkippedError } from './statement-skipped-error.js';

// query_canceled: a statement_timeout, or a cancel request (the client of the request went away).
const QUERY_CANCELED = '57014';

/**
 * True when a statement failed because it was cancelled, not because it was wrong, or did not
 * run because one before it in its batch was.
 */
export function isStatementCancelled(error: unknown): boolean {
  if (error instanceof StatementSkippedError) return isStatementCancelled(error.cause);
  return error instanceof Error && (error as { code?: unknown }).code === QUERY_CANCELED;
}
