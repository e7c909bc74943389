import { CommanderError } from 'commander';
import { ValidationError } from '../errors/validation-error.js';
import { ReportedFailureError } from './reported-failure.js';

// PostgreSQL names what it refused, not the fix: every command works as DATABASE_URL's login,
// which must be the one that runs migrations (docs/operations/deployment.md).
const INSUFFICIENT_PRIVILEGE = '42501';
const OWNER_NEEDED = "DATABASE_URL must connect as the database's owner (with CREATEROLE) or a superuser.";

// The field messages the HTTP API would answer with (the admin commands share its rules).
export const failureMessage = (error: unknown): string => {
  if (error instanceof ValidationError) return Object.values(error.errors).flat().join(' ');
  if (!(error instanceof Error)) return String(error);
  return (error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE ? `${error.message}: ${OWNER_NEEDED}` : error.message;
};

/** Exit codes: 0 done (help too), 1 the command failed, 2 the command line was wrong. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  return 1;
}

/** The one line a failed command leaves on standard error; null when commander or the command itself already said it. */
export const failureReport = (error: unknown): string | null => (exitCodeOf(error) === 1 && !(error instanceof ReportedFailureError) ? failureMessage(error) : null);
