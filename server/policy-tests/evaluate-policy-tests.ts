import {
  authorizeIncludes,
  DEFAULT_TEST_ORGANIZATION,
  ForbiddenIncludeError,
  InvalidPermissionError,
  parsePermission,
  permittedAttributesFor,
  policyFor,
  readableAttribute,
  STANDARD_ACTIONS,
  UnknownIncludeError,
  type PolicyMethod,
  type ResourcePolicy,
} from '@gatehouse/engine';
import { POLICY_ACTIONS } from '@gatehouse/engine/wire';
import { exposedAttributes } from '../data/exposed-attributes.js';
import { settableFields } from '../data/writable-fields.js';
import type { ModelDefinition } from '../models/define-model.js';
import { relationSlugIn, type ModelRegistry } from '../models/model-registry.js';
import type { RouteGroup } from '../models/route-group.js';
import { checkResourceAction } from '../data/check-resource-action.js';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import type { ServiceResource } from '../permissions/service-resources.js';
import { explainAction, explainInclude, explainRead, explainWrite, permissionStory, type PermissionOrigin } from './explain-check.js';
import type { Outcome, PolicyTest, Principal } from './policy-test-schema.js';
import type { KeyPath, LoadedPolicyTestFile } from './read-policy-test-file.js';

/** What the tests need of the application: its models and policies, route groups and organization roles. */
export interface PolicyTestApp {
  readonly registry: ModelRegistry;
  readonly routeGroups: readonly RouteGroup[];
  readonly organizationRoles: Readonly<Record<string, readonly string[]>>;
  /** The resources of other services the config declares: their actions are decided by the permission alone. */
  readonly services: readonly ServiceResource[];
}

/** One expectation of one test, judged. */
export interface CheckResult {
  readonly file: string;
  readonly line: number;
  /** The test's name, else `{principal} {resource}`. */
  readonly test: string;
  /** `update`, `read internal_notes`, `write title on create`, `include comments.author`. */
  readonly check: string;
  readonly expected: string;
  readonly actual: string;
  readonly passed: boolean;
  readonly explanation: string;
}

const outcome = (allowed: boolean): Outcome => (allowed ? 'allow' : 'deny');

/** `update` or the policy method name `delete`: both name the permission action `destroy`. */
const actionOf = (name: string) => (Object.hasOwn(POLICY_ACTIONS, name) ? POLICY_ACTIONS[name as PolicyMethod] : name);

/**
 * Runs one file's tests in-process against the application's own models and policies: the
 * policies bound with `policyFor` (the server's layering and compilation of permissions), the
 * read and write gates and include authorization the data routes use. A file that names
 * something the application does not have throws its PolicyTestFileError before any test runs.
 */
export function evaluatePolicyTests(app: PolicyTestApp, loaded: LoadedPolicyTestFile): CheckResult[] {
  const { content, problemAt } = loaded;
  const roles = content.roles ?? app.organizationRoles;
  for (const [path, permissions] of permissionLists(content)) {
    for (const [index, permission] of permissions.entries()) {
      try {
        parsePermission(permission);
      } catch (error) {
        if (error instanceof InvalidPermissionError) throw problemAt([...path, index], error.message);
        throw error;
      }
    }
  }
  for (const [name, principal] of Object.entries(content.principals)) {
    if ('role' in principal && !Object.hasOwn(roles, principal.role)) {
      throw problemAt(['principals', name, 'role'], `no role ${principal.role} in ${content.roles ? 'this file’s roles' : 'the config’s organizationRoles'} (${Object.keys(roles).join(', ')})`);
    }
  }
  for (const [name, resource] of Object.entries(content.resources)) {
    if (!app.registry.has(resource.model) && serviceResourceOf(app, resource.model) === undefined) throw problemAt(['resources', name, 'model'], `no registered model ${resource.model}`);
  }
  // A custom action is one some role or principal names: anything else is a typo, not a test.
  const named = new Set([...Object.values(roles), ...permissionLists(content).map(([, permissions]) => permissions)].flat());
  return content.tests.flatMap((test, index) => evaluateTest(app, loaded, { roles, named }, test, ['tests', index]));
}

/** The permission lists the file's tests draw on: the roles in force, and every permission a role or principal names. */
interface FilePermissions {
  readonly roles: Readonly<Record<string, readonly string[]>>;
  readonly named: ReadonlySet<string>;
}

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

function routeGroupOf(app: PolicyTestApp, principal: Principal, requested: string | undefined, fail: (problem: string) => Error): RouteGroup {
  if (requested !== undefined) {
    const group = app.routeGroups.find((candidate) => candidate.name === requested);
    if (!group) throw fail(`no route group ${requested} (the config has ${app.routeGroups.map((candidate) => candidate.name).join(', ')})`);
    return group;
  }
  const wanted = 'role' in principal ? (group: RouteGroup) => group.tenancy !== 'none' : (group: RouteGroup) => group.tenancy === 'none';
  const group = app.routeGroups.find((candidate) => candidate.isDefault && wanted(candidate)) ?? app.routeGroups.find(wanted);
  if (!group) throw fail(`no route group ${'role' in principal ? 'with' : 'without'} organizations for this principal: name one with route_group`);
  return group;
}

function evaluateTest(app: PolicyTestApp, loaded: LoadedPolicyTestFile, { roles, named }: FilePermissions, test: PolicyTest, at: KeyPath): CheckResult[] {
  const { content, problemAt, lineAt } = loaded;
  const principal = content.principals[test.principal];
  if (!principal) throw problemAt([...at, 'principal'], `no principal ${test.principal} in principals`);
  const resource = content.resources[test.resource];
  if (!resource) throw problemAt([...at, 'resource'], `no resource ${test.resource} in resources`);
  const service = serviceResourceOf(app, resource.model);
  const group = routeGroupOf(app, principal, test.route_group ?? principal.route_group, (problem) => problemAt([...at, 'route_group'], problem));
  if (service === undefined && !group.models.includes(resource.model)) throw problemAt([...at, 'resource'], `model ${resource.model} is not served in route group ${group.name}`);
  const tenant = group.tenancy !== 'none';
  if (tenant !== 'role' in principal) {
    throw problemAt([...at, 'principal'], tenant ? `route group ${group.name} has organizations: its principals have a role` : `route group ${group.name} has no organizations: its principals have permissions, not a role`);
  }

  const origin: PermissionOrigin = {
    source: 'role' in principal ? `role ${principal.role}` : 'users.permissions',
    permissions: 'role' in principal ? roles[principal.role]! : principal.permissions,
    granted: principal.granted ?? [],
    denied: principal.denied ?? [],
  };
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
  const user = { id: principal.id ?? Object.keys(content.principals).indexOf(test.principal) + 1 };
  const policy = policyFor(app.registry.policy(model), {
    role: 'role' in principal ? principal.role : null,
    permissions: origin.permissions,
    granted: origin.granted,
    denied: origin.denied,
    user,
    organization: tenant ? (test.organization ?? ('organization' in principal ? principal.organization : undefined) ?? DEFAULT_TEST_ORGANIZATION) : null,
    routeGroup: group.name,
  }) as ResourcePolicy<object>;
  const record = { ...resource.attributes };
  const known = (field: string, path: KeyPath) => {
    if (!Object.hasOwn(model.attributes, field)) throw problemAt(path, `${field} is not an attribute of model ${model.slug}`);
  };

  const results: CheckResult[] = [];
  for (const [name, expected] of Object.entries(test.actions ?? {})) {
    const action = actionOf(name);
    if (!(STANDARD_ACTIONS as readonly string[]).includes(action) && !named.has(`${model.slug}.${action}`)) {
      throw problemAt(
        [...at, 'actions', name],
        `no action ${name}: not a standard action (${STANDARD_ACTIONS.join(', ')}), a policy method (${Object.keys(POLICY_ACTIONS).join(', ')}), ` +
          `nor a custom action a role or principal names (${model.slug}.${action})`,
      );
    }
    const allowed = policy.can(action, user, record);
    const check = action === name || (STANDARD_ACTIONS as readonly string[]).includes(name) ? action : `${name} (${action})`;
    results.push(result([...at, 'actions', name], check, expected, outcome(allowed), explainAction(policy, origin, action, allowed)));
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
  test: PolicyTest,
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
