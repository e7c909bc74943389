import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The `gatehouse` the tests run: the CLI built once per test run (tests/support/setup-cli-build.ts),
 * started as server/bin/gatehouse.js starts it in a checkout.
 */
export const BIN = join(ROOT, 'harness', 'gatehouse-build.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npx gatehouse <args>` as a user would, against the database named by DATABASE_URL;
 * standard input is a pipe that holds `input` (default nothing).
 */
export function runCli(args: string[], databaseUrl: string, env: NodeJS.ProcessEnv = {}, input = ''): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

/**
 * Runs `gatehouse <args>` on a terminal of its own (util-linux `script` gives it one) and types
 * the next answer each time the output shows `prompt` again. What the terminal shows, the
 * typed text echoed or not, comes back as stdout.
 */
export function runCliOnTerminal(args: string[], databaseUrl: string, prompt: RegExp, answers: readonly string[]): Promise<CliRun> {
  const command = [process.execPath, BIN, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], { env: { ...process.env, DATABASE_URL: databaseUrl } });
  let stdout = '';
  let typed = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const asked = stdout.split(prompt).length - 1;
    for (; typed < Math.min(asked, answers.length); typed++) child.stdin.write(`${answers[typed]}\r`);
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return once(child, 'exit').then(([code]) => ({ code: Number(code ?? 1), stdout, stderr }));
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
