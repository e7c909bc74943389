import { subject } from '@casl/ability';
import { conditionContext, conditionsOn, packAbilityRules, unpackAbility, type AccessPlan } from '@gatehouse/engine';
import pg from 'pg';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import { permissionStory } from './explain-check.js';
import { ScratchTableError, type FixtureDatabase } from './fixture-database.js';
import type { FixtureRow, Fixtures } from './fixture-records.js';
import { idList, judgeList } from './list-verdict.js';
import type { ListTest } from './policy-test-schema.js';
import type { KeyPath, LoadedPolicyTestFile } from './read-policy-test-file.js';
import { callerOf, checkedAction, type Caller, type CheckResult, type FilePermissions, type PolicyTestApp } from './test-caller.js';

/** Opens the database list tests read their SQL lists from; its error says why none can be used. */
export type FixtureDatabaseSource = () => Promise<FixtureDatabase>;

/** A check that needs the SQL list of `slug`'s fixtures under `plan`; judged once the database answers, or with why it could not. */
export interface PendingSqlCheck {
  readonly slug: string;
  readonly plan: AccessPlan;
  judge(inSql: readonly number[] | string): CheckResult;
}

/** The file's fixtures: their checked rows, and the records the policy and CASL read, relations attached (recordGraph). */
export interface FileRecords {
  readonly fixtures: Fixtures;
  readonly graph: Fixtures;
}

/**
 * A caller's decisions on records, both ways: the CASL rules packed and unpacked as `GET
 * {t}/user-role` sends them to the browser, and the plan the server's SQL filter reads through.
 */
export function callerRules(app: PolicyTestApp, { origin, user, organization, group }: Caller) {
  const context = conditionContext({ user, organization, routeGroup: group.name });
  const compiled = compiledPermissions({ role: origin.permissions, granted: origin.granted, denied: origin.denied }, { catalog: app.registry.conditions, context });
  const browser = unpackAbility(packAbilityRules(compiled.ability));
  return {
    allows: (slug: string, action: string, record: object) => browser.can(action, subject(slug, { ...record })),
    plan: (slug: string, action: string) => compiled.plan(slug, action),
    /** Which rules decide: the permission's story, or its conditioned entries. */
    rules(slug: string, action: string) {
      const permission = `${slug}.${action}`;
      return compiled.plan(slug, action).kind === 'conditional' ? `${permission} holds by ${conditionsOn(compiled.permissions, slug, action).join(', ')}` : permissionStory(origin, permission);
    },
  };
}

/** The model a list test is about: the one it names, else the only one the file has records of. */
function listModel(list: ListTest, fixtures: Fixtures, problem: (message: string) => Error): string {
  if (list.model !== undefined) return list.model;
  if (fixtures.size === 1) return [...fixtures.keys()][0]!;
  throw problem(fixtures.size === 0 ? 'name the model: the file declares no records' : `name the model: the file has records of ${[...fixtures.keys()].join(', ')}`);
}

/**
 * A list test: its principal, model and action checked, its list computed by the caller's CASL
 * rules over the fixtures, then judged against the SQL list and `expect`.
 */
export function prepareListTest(app: PolicyTestApp, loaded: LoadedPolicyTestFile, permissions: FilePermissions, records: FileRecords, list: ListTest, name: string | undefined, at: KeyPath): PendingSqlCheck {
  const { problemAt } = loaded;
  const here = [...at, 'list'];
  const slug = listModel(list, records.fixtures, (problem) => problemAt([...here, 'model'], problem));
  if (!app.registry.has(slug)) throw problemAt([...here, 'model'], `no registered model ${slug}`);
  const caller = callerOf(app, loaded, permissions.roles, list.as, {}, { principal: [...here, 'as'], routeGroup: [...here, 'as'] }, { slug, at: [...here, 'model'] });
  const action = checkedAction(app.registry.get(slug), list.action, permissions.named, (problem) => problemAt([...here, 'action'], problem));
  const rules = callerRules(app, caller);
  const memory = (records.graph.get(slug) ?? []).filter((record) => rules.allows(slug, action, record)).map((record) => record.id as number);
  const result = { file: loaded.file, line: loaded.lineAt(here), test: name ?? `${list.as} ${slug}`, check: `list ${action}`, expected: idList(list.expect) };
  return {
    slug,
    plan: rules.plan(slug, action),
    judge(inSql) {
      if (typeof inSql === 'string') return { ...result, actual: `${idList(memory)} in memory, none in SQL`, passed: false, explanation: inSql };
      const { actual, passed, difference } = judgeList(list.expect, memory, inSql);
      return { ...result, actual, passed, explanation: passed ? rules.rules(slug, action) : `${difference}; ${rules.rules(slug, action)}` };
    },
  };
}

/**
 * A record test's action on a fixture, decided again by the CASL rules and by the SQL filter:
 * the two must agree (the policy's own decision, overrides included, is the test's other check).
 */
export function recordSqlCheck(rules: ReturnType<typeof callerRules>, slug: string, action: string, record: FixtureRow, result: Omit<CheckResult, 'expected' | 'actual' | 'passed' | 'explanation'>): PendingSqlCheck {
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
