import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isStatementCancelled } from '../../../../server/db/connection/statement-cancelled.js';
import { StatementSkippedError } from '../../../../server/db/connection/statement-skipped-error.js';
import { inOpenedTransaction } from '../../../../server/db/transactions/tenant-transaction.js';
import { oneConnectionDatabase } from '../../../support/one-connection-database.js';

// A read-ahead's statements go out with one Sync (server/db/connection/statement-batch.ts). One
// connection, so what a failed batch leaves behind is what the next transaction gets.
const db = oneConnectionDatabase<unknown>();

// The transaction leaves a trace until it ends: a temporary table, gone again if it rolls back.
const OPENING = 'BEGIN; CREATE TEMPORARY TABLE batch_trace (n integer)';
const written = CompiledQuery.raw('INSERT INTO batch_trace VALUES ($1) RETURNING n', [7]);
const divided = (by: number) => CompiledQuery.raw('SELECT 10 / $1::integer AS n', [by]);
const echoed = CompiledQuery.raw('SELECT $1::text AS word', ['after']);

/** Runs the statements as one complete read-ahead; each is then read, and what each answered comes back. */
function readAhead(statements: CompiledQuery[]) {
  return inOpenedTransaction(
    db(),
    OPENING,
    (trx) => Promise.all(statements.map((statement) => trx.executeQuery(statement).then(({ rows }) => rows, (error: unknown) => error))),
    { ahead: { statements, complete: true } },
  );
}

const traced = async () => (await sql<{ trace: string | null }>`SELECT to_regclass('pg_temp.batch_trace')::text AS trace`.execute(db())).rows[0]!.trace;

describe('a statement failing in the middle of a read-ahead', () => {
  it('fails its own reader with its error and the readers after it with one that says they did not run', async () => {
    const [before, failed, after] = await readAhead([written, divided(0), echoed]);
    expect(before).toEqual([{ n: 7 }]);
    expect(failed).toBeInstanceOf(pg.DatabaseError);
    expect(failed).toMatchObject({ code: '22012' });
    expect(after).toBeInstanceOf(StatementSkippedError);
    expect((after as Error).message).toMatch(/^Not run: a statement sent before it in the same batch failed \(division by zero\)$/);
  });

  it('ends the transaction as a rollback and leaves the connection ready, its statements prepared again where needed', async () => {
    await readAhead([written, divided(0), echoed]);
    expect(await traced()).toBeNull();
    // The failed statement was parsed before it failed, the one after it never was: both run now.
    expect(await readAhead([written, divided(5), echoed])).toEqual([[{ n: 7 }], [{ n: 2 }], [{ word: 'after' }]]);
    expect(await traced()).toBe('batch_trace');
  });

  it('fails every reader when its first statement fails', async () => {
    await sql`DISCARD TEMPORARY`.execute(db());
    const answers = await readAhead([divided(0), written, echoed]);
    expect(answers[0]).toMatchObject({ code: '22012' });
    expect(answers.slice(1).map((answer) => answer instanceof StatementSkippedError)).toEqual([true, true]);
    expect(await traced()).toBeNull();
  });

  it('is a cancellation for the readers after a statement its deadline cancelled', async () => {
    const slept = CompiledQuery.raw('SELECT pg_sleep($1::integer)', [30]);
    const answers = await inOpenedTransaction(
      db(),
      "BEGIN; SET LOCAL statement_timeout = '20ms'",
      (trx) => Promise.all([slept, echoed].map((statement) => trx.executeQuery(statement).then(({ rows }) => rows, (error: unknown) => error))),
      { ahead: { statements: [slept, echoed], complete: true } },
    );
    expect(answers[1]).toBeInstanceOf(StatementSkippedError);
    expect(answers.map(isStatementCancelled)).toEqual([true, true]);
  });
});

describe('a prepared statement run again', () => {
  const probe = CompiledQuery.raw('SELECT * FROM shape_probe WHERE a = $1', [1]);

  it('parses its rows as the first run did, from the shape that run described', async () => {
    const typed = CompiledQuery.raw("SELECT $1::integer AS n, '2026-01-02T03:04:05Z'::timestamptz AS at, NULL::text AS none", [4]);
    const runs = [await db().executeQuery(typed), await db().executeQuery(typed)];
    for (const { rows } of runs) expect(rows).toEqual([{ n: 4, at: new Date('2026-01-02T03:04:05Z'), none: null }]);
  });

  it('reads the new rows once a migration has changed them, after one failure', async () => {
    await sql`CREATE TEMPORARY TABLE shape_probe (a integer)`.execute(db());
    await sql`INSERT INTO shape_probe VALUES (1)`.execute(db());
    try {
      expect((await db().executeQuery(probe)).rows).toEqual([{ a: 1 }]);
      await sql`ALTER TABLE shape_probe ADD COLUMN b text DEFAULT 'added'`.execute(db());
      await expect(db().executeQuery(probe)).rejects.toMatchObject({ code: '0A000' });
      expect((await db().executeQuery(probe)).rows).toEqual([{ a: 1, b: 'added' }]);
    } finally {
      await sql`DROP TABLE shape_probe`.execute(db());
    }
  });
});
