import { vi } from 'vitest';
import { exitCodeOf, failureReport } from '../../server/cli/cli-failure.js';
import { createProgram } from '../../server/cli/program.js';
import type { CliRun } from '../../harness/cli.js';

/**
 * `gatehouse <args>` run in this process through the commander program, against the database
 * at `databaseUrl`: no Node process to start. A refusal rejects with the error the command
 * line would print (main.ts turns it into one line and exit code 1).
 */
export async function gatehouseInProcess(databaseUrl: string, args: string[]): Promise<void> {
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  try {
    await createProgram().parseAsync(args, { from: 'user' });
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}

/**
 * What `gatehouse <args>` prints and exits with, as main.ts would, run in this process: for the
 * commands' own refusals (exit 1). One at a time: it listens to this process's console.
 */
export async function gatehouseRun(databaseUrl: string, args: string[]): Promise<CliRun> {
  const stdout: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void stdout.push(`${parts.join(' ')}\n`));
  try {
    await gatehouseInProcess(databaseUrl, args);
    return { code: 0, stdout: stdout.join(''), stderr: '' };
  } catch (error) {
    const report = failureReport(error);
    return { code: exitCodeOf(error), stdout: stdout.join(''), stderr: report === null ? '' : `${report}\n` };
  } finally {
    log.mockRestore();
  }
}
