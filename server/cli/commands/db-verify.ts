import type { GateCheck } from '../../db/verify/verify-record-gate.js';
import { commandGroup, type CliCommand } from '../cli-command.js';

/** A verification with a failed check: main.ts prints this and exits 1. */
export class VerificationFailedError extends Error {
  constructor(failed: number) {
    super(`${failed} check(s) failed: the record gate does not hold on this database.`);
    this.name = 'VerificationFailedError';
  }
}

const line = (check: GateCheck, width: number) => `${check.status.padEnd(4)} ${check.table.padEnd(width)} ${check.check}: ${check.detail}`;

async function verify(options: { json?: boolean }): Promise<void> {
  const [{ withDatabaseTarget }, { verifyRecordGate }, { assertMigrated }] = await Promise.all([
    import('../database-target.js'),
    import('../../db/verify/verify-record-gate.js'),
    import('../../db/migrations/migration-status.js'),
  ]);
  const checks = await withDatabaseTarget(async (target) => {
    await assertMigrated(target.ownerUrl);
    return verifyRecordGate(target.ownerUrl);
  });
  if (options.json) console.log(JSON.stringify({ checks }, null, 2));
  else {
    const width = Math.max(0, ...checks.map((check) => check.table.length));
    for (const check of checks) console.log(line(check, width));
  }
  const failed = checks.filter((check) => check.status === 'fail').length;
  if (failed > 0) throw new VerificationFailedError(failed);
}

export const dbVerifyCommand: CliCommand = (program) => {
  commandGroup(program, 'db', 'The database Gatehouse uses')
    .command('verify')
    .description(
      'Prove the record gate on the migrated database, table by table, inside a transaction it rolls back: row-level security ' +
        'enabled and forced, tenants kept apart for the service, analysts reading only their organizations and no hidden column',
    )
    .option('--json', 'print the checks as JSON')
    .action(verify);
};
