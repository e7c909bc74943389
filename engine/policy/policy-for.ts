import { compileAbility } from '../ability/compile-ability.js';
import type { GatehouseAbility } from '../ability/gatehouse-ability.js';
import { conditionContext } from '../conditions/condition-context.js';
import { EMPTY_CATALOG, type ConditionCatalog } from '../conditions/condition-catalog.js';
import { effectivePermissions } from '../permissions/effective-permissions.js';
import type { OrganizationKey, OrganizationRef, PolicyContext, PolicyUser } from './policy-context.js';
import { slugForPolicyName } from './resource-naming.js';
import { bindPolicySlug, type PolicyClass } from './resolve-policy.js';

export interface PolicyForOptions {
  /** The caller's role slug in the organization (what `hasRole` tests); `null` outside one. */
  readonly role?: string | null;
  /** The role's permissions, or `users.permissions` for a non-tenant route group. */
  readonly permissions?: Iterable<string>;
  /** The member's per-user grants and denials, layered as the server layers them. */
  readonly granted?: Iterable<string>;
  readonly denied?: Iterable<string>;
  /** Default `{ id: 1 }`; `null` for a guest. */
  readonly user?: PolicyUser | null;
  /** Default `{ id: 1, slug: 'test' }` when a role is given, else none. */
  readonly organization?: OrganizationRef | null;
  readonly routeGroup?: string | null;
  /** The resource slug, for a policy that declares none and whose name gives none. */
  readonly slug?: string;
  /** The caller's abilities in other organizations, for `hasPermission(permission, org)`. */
  readonly permissionsFor?: (organization: OrganizationKey) => GatehouseAbility | undefined;
  /** The models' record conditions that conditioned permissions (`posts.update:own`) name. */
  readonly catalog?: ConditionCatalog;
}

export const DEFAULT_TEST_USER: PolicyUser = { id: 1 };
export const DEFAULT_TEST_ORGANIZATION: OrganizationRef = { id: 1, slug: 'test' };

/**
 * A policy bound to a caller in one line, for unit tests: `policyFor(PostPolicy, { role:
 * 'viewer', permissions: ['posts.index'] })`. The permissions go through the same layering
 * ((role ∪ granted) − denied) and compilation as a request's, and a policy that names no slug is
 * bound to the one its class name gives (`PostPolicy` → `posts`), as the server binds it.
 */
export function policyFor<P extends PolicyClass>(Policy: P, options: PolicyForOptions = {}): InstanceType<P> {
  const { role = null, permissions = [], granted, denied, routeGroup = null, catalog = EMPTY_CATALOG } = options;
  const user = options.user === undefined ? DEFAULT_TEST_USER : options.user;
  const organization = options.organization === undefined ? (role === null ? null : DEFAULT_TEST_ORGANIZATION) : options.organization;
  const effective = effectivePermissions({ role: permissions, granted, denied });
  const context: PolicyContext = {
    user,
    ability: compileAbility(effective, { catalog, context: conditionContext({ user, organization, routeGroup }) }),
    role,
    organization,
    routeGroup,
    permissionsFor: options.permissionsFor,
  };
  return new (boundPolicy(Policy, options.slug))(context) as InstanceType<P>;
}

function boundPolicy(Policy: PolicyClass, slug: string | undefined): PolicyClass {
  if (Policy.declaredResourceSlug() !== undefined) return Policy;
  const resolved = slug ?? slugForPolicyName(Policy.name);
  return resolved === undefined ? Policy : bindPolicySlug(Policy, resolved);
}
