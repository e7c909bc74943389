import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'gatehouse.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npx gatehouse <args>` as a user would, against the database named by DATABASE_URL. */
export function runCli(args: string[], databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

export interface RunningCommand {
  readonly child: ChildProcess;
  /** Everything printed so far. */
  output(): CliRun;
  /** Resolves with the output once stdout matches, fails if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
}

export interface StartOptions {
  /** Default: the repository. */
  cwd?: string;
  /** Its own process group, so that `process.kill(-pid)` reaches a shell's children too. */
  detached?: boolean;
}

/** Starts a long-running command (`npm start`, `gatehouse serve`) and watches its output. */
export function startCommand(command: string, args: string[], env: NodeJS.ProcessEnv, { cwd = ROOT, detached = false }: StartOptions = {}): RunningCommand {
  const child = spawn(command, args, { cwd, detached, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const output = () => ({ code: child.exitCode ?? -1, stdout, stderr });
  return {
    child,
    output,
    exited,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stdout)) return;
          cleanup();
          resolve(stdout);
        };
        const fail = (why: string) => () => {
          cleanup();
          reject(new Error(`${why} before stdout matched ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
        };
        const onExit = fail('exited');
        const timer = setTimeout(fail(`no match in ${timeoutMs} ms`), timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          child.off('exit', onExit);
        };
        child.stdout?.on('data', check);
        child.once('exit', onExit);
        check();
      }),
  };
}

/** `gatehouse <args>` as a long-running process. */
export function startCli(args: string[], env: NodeJS.ProcessEnv): RunningCommand {
  return startCommand(process.execPath, [BIN, ...args], env);
}
