import {
  authorizeIncludes,
  ForbiddenIncludeError,
  isValidPermission,
  permittedAttributesFor,
  policyFor,
  readableAttribute,
  STANDARD_ACTIONS,
  UnknownIncludeError,
  type ResourcePolicy,
} from '@gatehouse/engine';
import { exposedAttributes } from '../data/exposed-attributes.js';
import { settableFields } from '../data/writable-fields.js';
import type { ModelDefinition } from '../models/define-model.js';
import { relationSlugIn } from '../models/model-registry.js';
import { checkResourceAction } from '../data/check-resource-action.js';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import { invalidPermissionMessage } from '../permissions/invalid-permission-message.js';
import { undeclaredCondition } from '../permissions/declared-conditions.js';
import type { ServiceResource } from '../permissions/service-resources.js';
import { explainAction, explainInclude, explainRead, explainWrite, permissionStory, type PermissionOrigin } from './explain-check.js';
import { callerRules } from './caller-rules.js';
import { prepareListTest } from './evaluate-list-tests.js';
import { checkFixtures, recordGraph, type FileRecords } from './fixture-records.js';
import { judgeSqlChecks, recordSqlCheck, type FixtureDatabaseSource, type PendingSqlCheck } from './sql-checks.js';
import type { Outcome, RecordTest } from './policy-test-schema.js';
import { keyName, type KeyPath, type LoadedPolicyTestFile } from './read-policy-test-file.js';
import { PolicyTestFileError } from './policy-test-file-error.js';
import { callerOf, checkedAction, type CheckResult, type FilePermissions, type PolicyTestApp } from './test-caller.js';

const outcome = (allowed: boolean): Outcome => (allowed ? 'allow' : 'deny');

/**
 * Runs one file's tests in-process against the application's own models and policies: the
 * policies bound with `policyFor` (the server's layering and compilation of permissions), the
 * read and write gates and include authorization the data routes use. List tests are computed
 * in memory too, then in SQL on `database` (opened only for a file that has them). A file that
 * names something the application does not have throws its PolicyTestFileError before any test runs.
 */
export async function evaluatePolicyTests(app: PolicyTestApp, loaded: LoadedPolicyTestFile, database: FixtureDatabaseSource): Promise<CheckResult[]> {
  const { content, problemAt } = loaded;
  const roles = content.roles ?? app.organizationRoles;
  for (const [path, permissions] of permissionLists(content)) {
    const index = permissions.findIndex((permission) => !isValidPermission(permission));
    // The sentence every surface refuses a malformed permission with: the list is its field.
    if (index !== -1) throw new PolicyTestFileError(loaded.file, loaded.lineAt([...path, index]), '', invalidPermissionMessage(keyName(path), permissions[index]));
    // Held, it would match no record, so a typo would pass as a refusal the test expects.
    for (const [at, permission] of permissions.entries()) {
      const undeclared = undeclaredCondition(app.registry.conditions, permission);
      if (undeclared !== undefined) throw problemAt([...path, at], undeclared);
    }
  }
  for (const [name, principal] of Object.entries(content.principals)) {
    if ('role' in principal && !Object.hasOwn(roles, principal.role)) {
      throw problemAt(['principals', name, 'role'], `no role ${principal.role} in ${content.roles ? 'this file’s roles' : 'the config’s organizationRoles'} (${Object.keys(roles).join(', ')})`);
    }
  }
  const fixtures = checkFixtures(app.registry, content.records, problemAt);
  for (const [name, resource] of Object.entries(content.resources)) {
    if (!app.registry.has(resource.model) && serviceResourceOf(app, resource.model) === undefined) throw problemAt(['resources', name, 'model'], `no registered model ${resource.model}`);
    if (resource.record === undefined) continue;
    if (resource.attributes !== undefined) throw problemAt(['resources', name, 'attributes'], 'a resource has attributes or is a record of records, not both');
    if (!fixtures.get(resource.model)?.some((row) => row.id === resource.record)) throw problemAt(['resources', name, 'record'], `no record ${resource.record} of ${resource.model} in records`);
  }
  // A custom action is one some role or principal names: anything else is a typo, not a test.
  const named = new Set([...Object.values(roles), ...permissionLists(content).map(([, permissions]) => permissions)].flat());
  const records: FileRecords = { fixtures, graph: recordGraph(app.registry, fixtures) };
  const checks = content.tests.flatMap((test, index): (CheckResult | PendingSqlCheck)[] => {
    const at = ['tests', index];
    return test.list ? [prepareListTest(app, loaded, { roles, named }, records, test.list, test.name, at)] : evaluateTest(app, loaded, { roles, named }, records, test as RecordTest, at);
  });
  const pending = checks.filter(isPending);
  const judged = pending.length === 0 ? [] : await judgeSqlChecks(app, loaded, fixtures, pending, database);
  return checks.map((check) => (isPending(check) ? judged[pending.indexOf(check)]! : check));
}

const isPending = (check: CheckResult | PendingSqlCheck): check is PendingSqlCheck => 'judge' in check;

function permissionLists(content: LoadedPolicyTestFile['content']): [KeyPath, readonly string[]][] {
  const lists: [KeyPath, readonly string[]][] = Object.entries(content.roles ?? {}).map(([name, permissions]) => [['roles', name], permissions]);
  for (const [name, principal] of Object.entries(content.principals)) {
    for (const key of ['permissions', 'granted', 'denied'] as const) {
      const permissions = (principal as Partial<Record<typeof key, string[]>>)[key];
      if (permissions) lists.push([['principals', name, key], permissions]);
    }
  }
  return lists;
}

/** `update`, or `delete (destroy)` where a policy method name stands for its action. */
const checkName = (name: string, action: string) => (action === name || (STANDARD_ACTIONS as readonly string[]).includes(name) ? action : `${name} (${action})`);

function evaluateTest(app: PolicyTestApp, loaded: LoadedPolicyTestFile, { roles, named }: FilePermissions, records: FileRecords, test: RecordTest, at: KeyPath): (CheckResult | PendingSqlCheck)[] {
  const { content, problemAt, lineAt } = loaded;
  const resource = content.resources[test.resource];
  if (!resource) throw problemAt([...at, 'resource'], `no resource ${test.resource} in resources`);
  const service = serviceResourceOf(app, resource.model);
  const served = service === undefined ? { slug: resource.model, at: [...at, 'resource'] } : null;
  const caller = callerOf(app, loaded, roles, test.principal, test, { principal: [...at, 'principal'], routeGroup: [...at, 'route_group'] }, served);
  const { principal, group, origin, user } = caller;

  const label = test.name ?? `${test.principal} ${test.resource}`;
  const result: Judge = (path, check, expected, actual, explanation) => ({
    file: loaded.file,
    line: lineAt(path),
    test: label,
    check,
    expected,
    actual,
    passed: expected === actual,
    explanation,
  });
  if (service !== undefined) return evaluateResourceTest(service, origin, test, at, { result, problemAt });

  const model = app.registry.get(resource.model);
  const policy = policyFor(app.registry.policy(model), {
    role: 'role' in principal ? principal.role : null,
    permissions: origin.permissions,
    granted: origin.granted,
    denied: origin.denied,
    user,
    organization: caller.organization,
    routeGroup: group.name,
    catalog: app.registry.conditions,
  }) as ResourcePolicy<object>;
  const fixture = resource.record === undefined ? undefined : records.graph.get(model.slug)!.find((row) => row.id === resource.record)!;
  const record = { ...(fixture ?? resource.attributes) };
  const rules = fixture && callerRules(app, caller);
  const known = (field: string, path: KeyPath) => {
    if (!Object.hasOwn(model.attributes, field)) throw problemAt(path, `${field} is not an attribute of model ${model.slug}`);
  };

  const results: (CheckResult | PendingSqlCheck)[] = [];
  for (const [name, expected] of Object.entries(test.actions ?? {})) {
    const action = checkedAction(model, name, named, (problem) => problemAt([...at, 'actions', name], problem));
    const allowed = policy.can(action, user, record);
    const check = checkName(name, action);
    results.push(result([...at, 'actions', name], check, expected, outcome(allowed), explainAction(policy, origin, action, allowed)));
    if (fixture && rules) results.push(recordSqlCheck(rules, model.slug, action, fixture, { file: loaded.file, line: lineAt([...at, 'actions', name]), test: label, check: `${check} in SQL` }));
  }

  const readable = new Set(exposedAttributes(model, readableAttribute(policy, user)));
  for (const key of ['visible', 'hidden'] as const) {
    for (const [index, field] of (test.read_fields?.[key] ?? []).entries()) {
      known(field, [...at, 'read_fields', key, index]);
      const visible = readable.has(field);
      const shown = visible ? 'visible' : 'hidden';
      results.push(result([...at, 'read_fields', key, index], `read ${field}`, key, shown, explainRead(policy, model, user, field, visible)));
    }
  }

  if (test.write_fields) {
    const { operation } = test.write_fields;
    const permitted = permittedAttributesFor(policy, user, operation);
    const settable = new Set(settableFields(model, permitted));
    for (const key of ['allowed', 'refused'] as const) {
      for (const [index, field] of (test.write_fields[key] ?? []).entries()) {
        known(field, [...at, 'write_fields', key, index]);
        const actual = settable.has(field) ? 'allowed' : 'refused';
        results.push(result([...at, 'write_fields', key, index], `write ${field} on ${operation}`, key, actual, explainWrite(policy, model, permitted, operation, field)));
      }
    }
  }

  const relationSlug = relationSlugIn(app.registry);
  for (const [path, expected] of Object.entries(test.includes ?? {})) {
    const refused = refusedHop(model, path, (includes) => authorizeIncludes({ ability: policy.context.ability, rootSlug: model.slug, includes, relationSlug }), relationSlug);
    if (refused instanceof UnknownIncludeError) throw problemAt([...at, 'includes', path], refused.message);
    results.push(result([...at, 'includes', path], `include ${path}`, expected, outcome(refused === null), explainInclude(origin, refused)));
  }
  return results;
}

/** One expectation judged at its key path. */
type Judge = (path: KeyPath, check: string, expected: string, actual: string, explanation: string) => CheckResult;

const serviceResourceOf = (app: PolicyTestApp, name: string) => (app.registry.has(name) ? undefined : app.services.find((candidate) => candidate.resource === name));

/**
 * A test of another service's resource, decided as `POST {t}/authorize` decides its checks: a
 * registered action, then the permission `{resource}.{action}` alone. Its fields and includes
 * are that service's to check, so a test naming them cannot run.
 */
function evaluateResourceTest(
  service: ServiceResource,
  origin: PermissionOrigin,
  test: RecordTest,
  at: KeyPath,
  { result, problemAt }: { result: Judge; problemAt: LoadedPolicyTestFile['problemAt'] },
): CheckResult[] {
  for (const key of ['read_fields', 'write_fields', 'includes'] as const) {
    if (test[key] !== undefined) throw problemAt([...at, key], `${service.resource} is a resource of ${service.service}: its fields and includes are checked there`);
  }
  const { ability } = compiledPermissions({ role: origin.permissions, granted: origin.granted, denied: origin.denied });
  return Object.entries(test.actions ?? {}).map(([action, expected]) => {
    const decided = checkResourceAction(ability, service, { model: service.resource, action });
    if (!decided.allowed && decided.reason.gate === 'action') {
      throw problemAt([...at, 'actions', action], `no action ${action}: ${service.resource} of ${service.service} registers ${service.actions.join(', ')}`);
    }
    return result([...at, 'actions', action], action, expected, outcome(decided.allowed), permissionStory(origin, `${service.resource}.${action}`));
  });
}

/** The first hop of `path` include authorization refuses, `null` when it allows; an unknown relation comes back as its error. */
function refusedHop(
  model: ModelDefinition,
  path: string,
  authorize: (includes: string[]) => void,
  relationSlug: (owner: string, relation: string) => string | undefined,
): { path: string; slug: string } | UnknownIncludeError | null {
  try {
    authorize([path]);
    return null;
  } catch (error) {
    if (error instanceof UnknownIncludeError) return error;
    if (!(error instanceof ForbiddenIncludeError)) throw error;
    const slug = error.path.split('.').reduce<string | undefined>((owner, relation) => owner && relationSlug(owner, relation), model.slug);
    return { path: error.path, slug: slug ?? '?' };
  }
}
