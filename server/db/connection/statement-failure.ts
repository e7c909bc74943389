import { StatementSkippedError } from './statement-skipped-error.js';

/**
 * The SQLSTATE a statement failed with. A statement skipped in its batch takes the one of the
 * failure that skipped it: it did not run for that reason, and its transaction is aborted by it.
 */
export function sqlStateOf(error: unknown): string | undefined {
  if (error instanceof StatementSkippedError) return sqlStateOf(error.cause);
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
