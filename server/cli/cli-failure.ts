import { CommanderError } from 'commander';
import { ValidationError } from '../errors/validation-error.js';
import { ReportedFailureError } from './reported-failure.js';

// The field messages the HTTP API would answer with (the admin commands share its rules).
export const failureMessage = (error: unknown): string =>
  error instanceof ValidationError ? Object.values(error.errors).flat().join(' ') : error instanceof Error ? error.message : String(error);

/** Exit codes: 0 done (help too), 1 the command failed, 2 the command line was wrong. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  return 1;
}

/** The one line a failed command leaves on standard error; null when commander or the command itself already said it. */
export const failureReport = (error: unknown): string | null => (exitCodeOf(error) === 1 && !(error instanceof ReportedFailureError) ? failureMessage(error) : null);
