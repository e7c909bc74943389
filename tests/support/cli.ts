import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'gatehouse.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npx gatehouse <args>` as a user would, against the database named by DATABASE_URL. */
export function runCli(args: string[], databaseUrl: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}
