import { DEFAULT_TEST_ORGANIZATION, STANDARD_ACTIONS, type OrganizationRef, type PolicyMethod } from '@gatehouse/engine';
import { POLICY_ACTIONS } from '@gatehouse/engine/wire';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { RouteGroup } from '../models/route-group.js';
import type { ServiceResource } from '../permissions/service-resources.js';
import type { PermissionOrigin } from './explain-check.js';
import type { PolicyTest, Principal } from './policy-test-schema.js';
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

/** `update` or the policy method name `delete`: both name the permission action `destroy`. */
export const actionOf = (name: string) => (Object.hasOwn(POLICY_ACTIONS, name) ? POLICY_ACTIONS[name as PolicyMethod] : name);

/** The permission lists the file's tests draw on: the roles in force, and every permission a role or principal names. */
export interface FilePermissions {
  readonly roles: Readonly<Record<string, readonly string[]>>;
  readonly named: ReadonlySet<string>;
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

/** Who a test acts as: the principal, its route group and the request's organization and facts. */
export interface Caller {
  readonly principal: Principal;
  readonly group: RouteGroup;
  readonly origin: PermissionOrigin;
  readonly user: { readonly id: number };
  readonly organization: OrganizationRef | null;
}

/** A principal's user id when it names none: its place among the principals, after them for a bare role. */
function memberId(principals: LoadedPolicyTestFile['content']['principals'], name: string): number {
  const names = Object.keys(principals);
  const index = names.indexOf(name);
  return (index === -1 ? names.length : index) + 1;
}

/**
 * The principal `name`, else a member of the role `name`, acting in `context` (a test's own route
 * group and organization, else the principal's), checked against the config's route groups and, unless `served` is null, in a group
 * that serves the model the test is about. `at` is where the file names them.
 */
export function callerOf(
  app: PolicyTestApp,
  loaded: LoadedPolicyTestFile,
  roles: FilePermissions['roles'],
  name: string,
  context: Pick<PolicyTest, 'route_group' | 'organization'>,
  at: { principal: KeyPath; routeGroup: KeyPath },
  served: { readonly slug: string; readonly at: KeyPath } | null,
): Caller {
  const { content, problemAt } = loaded;
  // A bare role name stands for a member of that role with no deltas, so `as: editor` needs no principals entry.
  const principal: Principal | undefined = content.principals[name] ?? (Object.hasOwn(roles, name) ? { role: name } : undefined);
  if (!principal) throw problemAt(at.principal, `no principal ${name} in principals, and no role ${name}`);
  const group = routeGroupOf(app, principal, context.route_group ?? principal.route_group, (problem) => problemAt(at.routeGroup, problem));
  if (served !== null && !group.models.includes(served.slug)) throw problemAt(served.at, `model ${served.slug} is not served in route group ${group.name}`);
  const tenant = group.tenancy !== 'none';
  if (tenant !== 'role' in principal) {
    throw problemAt(at.principal, tenant ? `route group ${group.name} has organizations: its principals have a role` : `route group ${group.name} has no organizations: its principals have permissions, not a role`);
  }
  return {
    principal,
    group,
    origin: {
      source: 'role' in principal ? `role ${principal.role}` : 'users.permissions',
      permissions: 'role' in principal ? roles[principal.role]! : principal.permissions,
      granted: principal.granted ?? [],
      denied: principal.denied ?? [],
    },
    user: { id: principal.id ?? memberId(content.principals, name) },
    organization: tenant ? (context.organization ?? ('organization' in principal ? principal.organization : undefined) ?? DEFAULT_TEST_ORGANIZATION) : null,
  };
}

/** The permission action a test names: a standard action, a policy method, or a custom action some role or principal names. */
export function checkedAction(model: ModelDefinition, name: string, named: ReadonlySet<string>, problem: (message: string) => Error): string {
  const action = actionOf(name);
  if (!(STANDARD_ACTIONS as readonly string[]).includes(action) && !named.has(`${model.slug}.${action}`)) {
    throw problem(
      `no action ${name}: not a standard action (${STANDARD_ACTIONS.join(', ')}), a policy method (${Object.keys(POLICY_ACTIONS).join(', ')}), ` +
        `nor a custom action a role or principal names (${model.slug}.${action})`,
    );
  }
  return action;
}
