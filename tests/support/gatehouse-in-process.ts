import { createProgram } from '../../server/cli/program.js';

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
