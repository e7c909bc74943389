import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session, type Profiler } from 'node:inspector/promises';
import { builtPackages } from './built-packages.js';

export interface CpuSample {
  /** Microseconds of CPU (user + system) the process has used so far. */
  cpuMicros: number;
}

export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  cpuMicros(): Promise<number>;
  /** V8's CPU profile of the process (what `node --cpu-prof` writes) while `load` runs. */
  profile(load: () => Promise<unknown>): Promise<Profiler.Profile>;
  stop(): Promise<void>;
}

type Message = { url: string } | CpuSample | { profiling: true } | { profile: Profiler.Profile };

export interface ServerProcessOptions {
  /** The Node that runs it, default this one. */
  execPath?: string;
  /** A checkout whose engine and server it runs from their builds (`built-packages.ts`), not from their TypeScript sources. */
  builtFrom?: string;
}

/**
 * Starts a benchmark server (a module under bench/http) in a process of its own, so its CPU
 * time is its own, and talks to it over IPC: it announces its URL, reports its CPU on demand and
 * exits when asked.
 */
export async function startServerProcess(name: string, module: string, env: Record<string, string>, { execPath = process.execPath, builtFrom }: ServerProcessOptions = {}): Promise<ServerProcess> {
  const built = builtFrom === undefined ? { execArgv: [], env: {} } : builtPackages(builtFrom);
  const child: ChildProcess = fork(module, [], {
    env: { ...process.env, ...env, ...built.env },
    execPath,
    execArgv: ['--conditions=gatehouse-source', '--import', 'tsx', ...built.execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = async () => (await once(child, 'message'))[0] as Message;
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`benchmark server ${name} exited with ${String(code)} before it was ready`);
  });
  const ready = (await Promise.race([next(), exited])) as { url: string };
  exited.catch(() => {});
  return {
    name,
    url: ready.url,
    pid: child.pid!,
    async cpuMicros() {
      child.send('cpu');
      return ((await next()) as CpuSample).cpuMicros;
    },
    async profile(load) {
      child.send('profile-start');
      await next();
      await load();
      child.send('profile-stop');
      return ((await next()) as { profile: Profiler.Profile }).profile;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = once(child, 'exit');
      child.send('stop');
      await gone;
    },
  };
}

/**
 * The child's side: announce the URL, answer CPU questions, profile between two requests (the
 * inspector's profiler, so start-up and module loading stay out of it), close on request.
 */
export function serveBenchmarkParent(url: string, close: () => Promise<void>): void {
  const profiler = new Session();
  process.on('message', async (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpuMicros: user + system } satisfies CpuSample);
    } else if (message === 'profile-start') {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      process.send!({ profiling: true });
    } else if (message === 'profile-stop') {
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      process.send!({ profile });
    } else if (message === 'stop') {
      void close().then(() => process.exit(0));
    }
  });
  process.send!({ url });
}

/** Listens on a free loopback port and serves the parent as serveBenchmarkParent does; on stop, closes every connection, then `release`. */
export async function serveHttpToBenchmarkParent(http: Server, release: () => Promise<void>): Promise<void> {
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  serveBenchmarkParent(`http://127.0.0.1:${port}`, async () => {
    await new Promise((resolve) => http.close(resolve));
    http.closeAllConnections();
    await release();
  });
}
