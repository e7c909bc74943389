import { callerRules } from './caller-rules.js';
import type { FileRecords, Fixtures } from './fixture-records.js';
import { idList, judgeList } from './list-verdict.js';
import type { ListTest } from './policy-test-schema.js';
import type { KeyPath, LoadedPolicyTestFile } from './read-policy-test-file.js';
import type { PendingSqlCheck } from './sql-checks.js';
import { callerOf, checkedAction, type FilePermissions, type PolicyTestApp } from './test-caller.js';

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
  const memory = (records.graph.get(slug) ?? []).filter((record) => rules.allows(slug, action, record)).map((record) => record.id);
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
