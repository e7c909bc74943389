import type { AccessPlan } from '@gatehouse/engine';
import pg from 'pg';
import type { CallerRules } from './caller-rules.js';
import { ScratchTableError, type FixtureDatabase } from './fixture-database.js';
import type { FixtureRow, Fixtures } from './fixture-records.js';
import type { LoadedPolicyTestFile } from './read-policy-test-file.js';
import type { CheckResult, PolicyTestApp } from './test-caller.js';

/** Opens the database list tests read their SQL lists from; its error says why none can be used. */
export type FixtureDatabaseSource = () => Promise<FixtureDatabase>;

/** A check that needs the SQL list of `slug`'s fixtures under `plan`; judged once the database answers, or with why it could not. */
export interface PendingSqlCheck {
  readonly slug: string;
  readonly plan: AccessPlan;
  judge(inSql: readonly number[] | string): CheckResult;
}

/**
 * A record test's action on a fixture, decided again by the CASL rules and by the SQL filter:
 * the two must agree (the policy's own decision, overrides included, is the test's other check).
 */
export function recordSqlCheck(rules: CallerRules, slug: string, action: string, record: FixtureRow, result: Omit<CheckResult, 'expected' | 'actual' | 'passed' | 'explanation'>): PendingSqlCheck {
  const memory = rules.allows(slug, action, record) ? 'allow' : 'deny';
  return {
    slug,
    plan: rules.plan(slug, action),
    judge(inSql) {
      if (typeof inSql === 'string') return { ...result, expected: memory, actual: 'not computed', passed: false, explanation: inSql };
      const actual = inSql.includes(record.id) ? 'allow' : 'deny';
      const agree = actual === memory ? `the CASL rules and the SQL filter agree on record ${record.id}` : `the in-memory check and the SQL filter disagree on record ${record.id}`;
      return { ...result, expected: memory, actual, passed: actual === memory, explanation: `${agree}; ${rules.rules(slug, action)}` };
    },
  };
}

/** The database's lists for `pending`, in order, or why it could not give them. */
async function sqlLists(app: PolicyTestApp, loaded: LoadedPolicyTestFile, fixtures: Fixtures, pending: readonly PendingSqlCheck[], database: FixtureDatabaseSource): Promise<number[][] | string> {
  let opened: FixtureDatabase;
  try {
    opened = await database();
  } catch (error) {
    return `no database to compute the SQL list on: ${(error as Error).message}`;
  }
  const refused = (slug: string, index: number, message: string) => loaded.problemAt(['records', slug, index], message);
  try {
    return await opened.withFixtures(
      app.registry,
      fixtures,
      pending.map((check) => check.slug),
      async (lister) => {
        const found: number[][] = [];
        for (const check of pending) found.push(await lister(check.slug, check.plan));
        return found;
      },
      refused,
    );
  } catch (error) {
    if (!(error instanceof ScratchTableError || error instanceof pg.DatabaseError)) throw error;
    return `the SQL list could not be computed: ${error.message}`;
  }
}

/**
 * The checks that need SQL, judged on the fixtures written into the database and rolled back.
 * Without a usable database each fails, saying why: a list checked in memory only would prove
 * nothing about the SQL it exists to compare.
 */
export async function judgeSqlChecks(app: PolicyTestApp, loaded: LoadedPolicyTestFile, fixtures: Fixtures, pending: readonly PendingSqlCheck[], database: FixtureDatabaseSource): Promise<CheckResult[]> {
  const lists = await sqlLists(app, loaded, fixtures, pending, database);
  return pending.map((check, index) => check.judge(typeof lists === 'string' ? lists : lists[index]!));
}
