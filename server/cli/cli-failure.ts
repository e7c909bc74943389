import { CommanderError } from 'commander';
import { ValidationError } from '../errors/validation-error.js';

// The field messages the HTTP API would answer with (the admin commands share its rules).
export const failureMessage = (error: unknown): string =>
  error instanceof ValidationError ? Object.values(error.errors).flat().join(' ') : error instanceof Error ? error.message : String(error);

/** Exit codes: 0 done (help too), 1 the command failed, 2 the command line was wrong. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  return 1;
}
