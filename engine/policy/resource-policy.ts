import { subject } from '@casl/ability';
import { abilityPermits } from '../ability/ability-permits.js';
import type { RecordConditions } from '../conditions/declared-condition.js';
import { ForbiddenError } from '../errors/forbidden-error.js';
import type { PolicyExplanation } from '../explain/explain-policy.js';
import { policyMethodName } from '../explain/policy-method-name.js';
import { MissingResourceSlugError } from '../errors/missing-resource-slug-error.js';
import { POLICY_ACTIONS, type PolicyMethod } from '../wire/standard-actions.js';
import { policyMethodFor } from './policy-actions.js';
import type { OrganizationKey, PolicyContext, PolicyUser } from './policy-context.js';
import { slugForModel } from './resource-naming.js';

type Caller = PolicyUser | null;

/**
 * The policy every model policy extends, bound to one request. Each action method checks
 * `{slug}.{action}` against the caller's ability; an override adds its own condition to
 * `super.method(...)` so the permission check stays (an override that skips the parent
 * bypasses the permission system for that action).
 */
export class ResourcePolicy<TRecord extends object = Record<string, unknown>> {
  /** The resource slug; wins over `model`. */
  static resourceSlug?: string;
  /** The model name the slug derives from: `Post` → `posts`, `BlogPost` → `blog_posts`. */
  static model?: string;
  /**
   * Named record conditions, as data, that permissions name after a colon: `posts.update:own`
   * grants update on the records `own` matches. Checked when the model is registered.
   */
  static conditions?: RecordConditions;

  constructor(readonly context: PolicyContext) {}

  /** The slug the class declares itself, if any; `resolvePolicy` binds the others. */
  static declaredResourceSlug(): string | undefined {
    return this.resourceSlug ?? (this.model === undefined ? undefined : slugForModel(this.model));
  }

  get resourceSlug(): string {
    const policy = this.constructor as typeof ResourcePolicy;
    const slug = policy.declaredResourceSlug();
    if (slug === undefined) throw new MissingResourceSlugError(policy.name);
    return slug;
  }

  /** The route group of the request, for policies whose rules differ between groups. */
  get routeGroup(): string | null {
    return this.context.routeGroup;
  }

  viewAny(_user: Caller): boolean {
    return this.holdsOnSome('viewAny');
  }

  view(_user: Caller, record: TRecord): boolean {
    return this.holdsOn('view', record);
  }

  create(_user: Caller): boolean {
    return this.holds('create');
  }

  update(_user: Caller, record: TRecord): boolean {
    return this.holdsOn('update', record);
  }

  delete(_user: Caller, record: TRecord): boolean {
    return this.holdsOn('delete', record);
  }

  viewTrashed(_user: Caller): boolean {
    return this.holdsOnSome('viewTrashed');
  }

  restore(_user: Caller, record: TRecord): boolean {
    return this.holdsOn('restore', record);
  }

  forceDelete(_user: Caller, record: TRecord): boolean {
    return this.holdsOn('forceDelete', record);
  }

  /** Fields returned on show and index; `null` returns every field. */
  permittedAttributesForShow(_user: Caller): string[] | null {
    return null;
  }

  /** Fields stripped after the whitelist; `null` strips none. */
  hiddenAttributesForShow(_user: Caller): string[] | null {
    return null;
  }

  /** Fields the caller may set on create; `null` allows every field. */
  permittedAttributesForCreate(_user: Caller): string[] | null {
    return null;
  }

  /** Fields the caller may set on update; the create list unless overridden. */
  permittedAttributesForUpdate(user: Caller): string[] | null {
    return this.permittedAttributesForCreate(user);
  }

  /** Whether `user` is the caller and holds `role` in the request's organization. */
  hasRole(user: Caller, role: string): boolean {
    return user !== null && user.id === this.context.user?.id && this.context.role === role;
  }

  /**
   * Whether the caller holds `permission` (wildcards included) in the request's organization,
   * or in `organization` (an object, id or slug) when given. An organization the server gives
   * no ability for grants nothing.
   */
  hasPermission(permission: string, organization?: OrganizationKey): boolean {
    const ability =
      organization === undefined || this.isCurrentOrganization(organization)
        ? this.context.ability
        : this.context.permissionsFor?.(organization);
    return ability !== undefined && abilityPermits(ability, permission);
  }

  /**
   * Whether the caller may perform `action` on this resource. A standard action (`index`,
   * `store`, ...) goes through its policy method, overrides included; a custom action checks
   * `{slug}.{action}`. Record actions need the record.
   */
  can(action: string, user: Caller, record?: TRecord): boolean {
    const method = policyMethodFor(action);
    return method === undefined ? this.hasPermission(`${this.resourceSlug}.${action}`) : this.allows(method, user, record);
  }

  /**
   * Throws `ForbiddenError` (403) unless the policy method allows it; the error's refusal names
   * the permission and, when an override refused although the permission is held, the method.
   */
  authorize(method: PolicyMethod, user: Caller, record?: TRecord): void {
    if (this.allows(method, user, record)) return;
    const { permission, refused_by } = this.explain(method, user, record);
    throw new ForbiddenError({ gate: 'policy', permission, ...(refused_by === null ? {} : { policy: refused_by }) });
  }

  /**
   * Whether the policy method allows the action, whether the caller holds its permission, and
   * which method refused when the permission alone would have passed: an override's own
   * condition (`PostPolicy.create` refusing viewers) or a method that refuses everyone.
   */
  explain(method: PolicyMethod, user: Caller, record?: TRecord): PolicyExplanation {
    const permission = this.permissionOf(method);
    const allowed = this.allows(method, user, record);
    const held = this.hasPermission(permission);
    return { allowed, permission, permission_held: held, refused_by: !allowed && held ? policyMethodName(this, method) : null };
  }

  private allows(method: PolicyMethod, user: Caller, record: TRecord | undefined): boolean {
    // The record methods declare their record as required for the subclasses' sake; callers of
    // can/authorize pass one whenever the action is about a record.
    const check = this[method] as (user: Caller, record?: TRecord) => boolean;
    return check.call(this, user, record);
  }

  private holds(method: PolicyMethod): boolean {
    return this.hasPermission(this.permissionOf(method));
  }

  /**
   * A listing is allowed when the caller may act on some records: a conditioned permission
   * (`posts.index:visible`) lists the records its condition matches, and the list's SQL holds it.
   */
  private holdsOnSome(method: PolicyMethod): boolean {
    return this.context.ability.can(POLICY_ACTIONS[method], this.resourceSlug);
  }

  /**
   * A record action checks the record against the caller's rules, conditions included; a caller
   * who passes no record (a check about the action in general) needs the whole permission.
   */
  private holdsOn(method: PolicyMethod, record: TRecord | undefined): boolean {
    if (record === undefined) return this.holds(method);
    const action = POLICY_ACTIONS[method];
    return this.context.recordVerdict?.(this.resourceSlug, action, record) ?? this.context.ability.can(action, subject(this.resourceSlug, { ...record }));
  }

  private permissionOf(method: PolicyMethod): string {
    return `${this.resourceSlug}.${POLICY_ACTIONS[method]}`;
  }

  private isCurrentOrganization(organization: OrganizationKey): boolean {
    const current = this.context.organization;
    if (current === null) return false;
    if (typeof organization === 'number') return organization === current.id;
    if (typeof organization === 'string') return organization === current.slug;
    return organization.id === current.id;
  }
}
