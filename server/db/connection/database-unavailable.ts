import { ConnectionLostError } from '../../errors/connection-lost-error.js';
import { UnreadableStylesError } from './unreadable-styles-error.js';

// Socket errors of node-postgres and the SQLSTATE classes that mean "the server is not there
// (yet)": connection exceptions (08), shutdown and start-up (57P01-57P03), too many connections,
// and a write that reached a standby (25006: a failover demoted the server under the connection).
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
const MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i];

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when a failure means the database cannot be reached, not that the query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof ConnectionLostError) return true;
  // Not served until an operator sets the styles back; the log's warning says how.
  if (error instanceof UnreadableStylesError) return true;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  const code = codeOf(error);
  if (code && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true;
  return MESSAGES.some((pattern) => pattern.test(error.message));
}
