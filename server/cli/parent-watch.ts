import { readFileSync } from 'node:fs';

// How often the server looks at the process that started it.
const CHECK_MS = 500;

const readProc = (pid: number, file: string): string | null => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
};

/**
 * npm (`npx gatehouse`, `npm start`) runs the CLI under `sh -c` and forwards a SIGINT or SIGTERM
 * sent to npm to that shell alone. Only then is a shell watched: npm names the lifecycle event.
 */
function npmShell(pid: number): boolean {
  const argv = readProc(pid, 'cmdline')?.split('\0') ?? [];
  return process.env.npm_lifecycle_event !== undefined && argv[1] === '-c';
}

// How often the process gave up the processor; null off Linux or once it is gone.
function wakeCount(pid: number): number | null {
  const line = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(readProc(pid, 'status') ?? '');
  return line ? Number(line[1]) : null;
}

/**
 * Calls `stop` with the signal the server should act on when the signal meant for it was lost on
 * the way:
 * - The parent went (SIGTERM): a shell in between dies of a SIGTERM without passing it on, and the
 *   server with its embedded cluster would be left running, adopted by init.
 * - npm's shell woke up (SIGINT): dash catches SIGINT while it waits for its command, and waits on.
 *   Waiting, it wakes for nothing but a signal that does not leave it as it is (SIGINT; a stop,
 *   as Ctrl-Z sends) or a change of this process's state. A wake is acted on at the next check
 *   unless this process was continued in between (Ctrl-Z, then `fg`), so a suspended server
 *   carries on once continued.
 */
export function watchParent(stop: (signal: NodeJS.Signals) => void): void {
  const parent = process.ppid;
  const shell = npmShell(parent);
  let wakes = shell ? wakeCount(parent) : null;
  let woken = false;
  // Checks left that only take the count: the shell wakes once more as it learns this process went on.
  let settling = 0;
  const continued = () => {
    woken = false;
    settling = 2;
  };
  process.on('SIGCONT', continued);
  const watch = setInterval(() => {
    if (process.ppid !== parent) return finish('SIGTERM');
    if (woken) return finish('SIGINT');
    if (wakes === null) return;
    const now = wakeCount(parent);
    woken = settling === 0 && now !== wakes;
    settling = Math.max(0, settling - 1);
    wakes = now;
  }, CHECK_MS);
  watch.unref();
  function finish(signal: NodeJS.Signals): void {
    clearInterval(watch);
    process.off('SIGCONT', continued);
    stop(signal);
  }
}
