import { subject } from '@casl/ability';
import { conditionContext, conditionsOn, packAbilityRules, unpackAbility, type AccessPlan } from '@gatehouse/engine';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import { permissionStory } from './explain-check.js';
import pg from 'pg';
import { ScratchTableError, type FixtureDatabase } from './fixture-database.js';
import { recordGraph, type Fixtures } from './fixture-records.js';
import { idList, judgeList } from './list-verdict.js';
import type { ListTest } from './policy-test-schema.js';
import type { KeyPath, LoadedPolicyTestFile } from './read-policy-test-file.js';
import { callerOf, checkedAction, type CheckResult, type FilePermissions, type PolicyTestApp } from './test-caller.js';

/** Opens the database list tests read their SQL lists from; its error says why none can be used. */
export type FixtureDatabaseSource = () => Promise<FixtureDatabase>;

/** A list test computed in memory, waiting for its SQL list. */
export interface PreparedList {
  readonly at: KeyPath;
  readonly test: string;
  readonly check: string;
  readonly slug: string;
  readonly plan: AccessPlan;
  readonly expect: readonly number[];
  /** The ids the caller's CASL rules (as the browser receives them) allow on the fixtures. */
  readonly memory: readonly number[];
  /** Which rules decide the list: the permission, or its conditioned entries. */
  readonly rules: string;
}

/** The model a list test is about: the one it names, else the only one the file has records of. */
function listModel(list: ListTest, fixtures: Fixtures, problem: (message: string) => Error): string {
  if (list.model !== undefined) return list.model;
  if (fixtures.size === 1) return [...fixtures.keys()][0]!;
  throw problem(fixtures.size === 0 ? 'name the model: the file declares no records' : `name the model: the file has records of ${[...fixtures.keys()].join(', ')}`);
}

/**
 * A list test's checks that need no database: its principal, model and action, and the list
 * the caller's CASL rules give, packed and unpacked as `GET {t}/user-role` sends them to the browser.
 */
export function prepareListTest(app: PolicyTestApp, loaded: LoadedPolicyTestFile, permissions: FilePermissions, fixtures: Fixtures, list: ListTest, name: string | undefined, at: KeyPath): PreparedList {
  const { problemAt } = loaded;
  const here = [...at, 'list'];
  const slug = listModel(list, fixtures, (problem) => problemAt([...here, 'model'], problem));
  if (!app.registry.has(slug)) throw problemAt([...here, 'model'], `no registered model ${slug}`);
  const caller = callerOf(app, loaded, permissions.roles, list.as, {}, { principal: [...here, 'as'], routeGroup: [...here, 'as'] }, { slug, at: [...here, 'model'] });
  const model = app.registry.get(slug);
  const action = checkedAction(model, list.action, permissions.named, (problem) => problemAt([...here, 'action'], problem));

  const { origin, user, organization, group } = caller;
  const context = conditionContext({ user, organization, routeGroup: group.name });
  const compiled = compiledPermissions({ role: origin.permissions, granted: origin.granted, denied: origin.denied }, { catalog: app.registry.conditions, context });
  const browser = unpackAbility(packAbilityRules(compiled.ability));
  const records = recordGraph(app.registry, fixtures).get(slug) ?? [];
  const plan = compiled.plan(slug, action);
  const permission = `${slug}.${action}`;
  return {
    at: here,
    test: name ?? `${list.as} ${slug}`,
    check: `list ${action}`,
    slug,
    plan,
    expect: list.expect,
    memory: records.filter((record) => browser.can(action, subject(slug, { ...record }))).map((record) => record.id as number),
    rules: plan.kind === 'conditional' ? `${permission} holds by ${conditionsOn(compiled.permissions, slug, action).join(', ')}` : permissionStory(origin, permission),
  };
}

/** The database's lists for `prepared`, in order, or why it could not give them. */
async function sqlLists(app: PolicyTestApp, loaded: LoadedPolicyTestFile, fixtures: Fixtures, prepared: readonly PreparedList[], database: FixtureDatabaseSource): Promise<number[][] | string> {
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
      prepared.map((list) => list.slug),
      async (lister) => {
        const found: number[][] = [];
        for (const list of prepared) found.push(await lister(list.slug, list.plan));
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
 * The SQL list of each prepared test, from the fixtures written into the database and rolled
 * back, then each test judged. Without a usable database every list test fails, saying why: a
 * list checked in memory only would prove nothing about the SQL it exists to compare.
 */
export async function judgeListTests(app: PolicyTestApp, loaded: LoadedPolicyTestFile, fixtures: Fixtures, prepared: readonly PreparedList[], database: FixtureDatabaseSource): Promise<CheckResult[]> {
  const lists = await sqlLists(app, loaded, fixtures, prepared, database);
  return prepared.map((list, index) => {
    const result = { file: loaded.file, line: loaded.lineAt(list.at), test: list.test, check: list.check };
    if (typeof lists === 'string') return { ...result, expected: idList(list.expect), actual: `${idList(list.memory)} in memory, none in SQL`, passed: false, explanation: lists };
    const { expected, actual, passed, difference } = judgeList(list.expect, list.memory, lists[index]!);
    return { ...result, expected, actual, passed, explanation: passed ? list.rules : `${difference}; ${list.rules}` };
  });
}
