import { formatPermission, type Permission } from './parse-permission.js';
import type { PermissionPatterns } from './permission-patterns.js';

/** Conditioned permissions (`posts.update:own`) of an effective list, beside its plain ones. */
export interface ConditionedPermissions {
  /** Grant the action on the records their condition matches. */
  readonly grants: readonly Permission[];
  /** Take the action away on the records their condition matches. */
  readonly exclusions: readonly Permission[];
}

export const NO_CONDITIONED: ConditionedPermissions = { grants: [], exclusions: [] };

const byText = (left: Permission, right: Permission) => {
  const [a, b] = [formatPermission(left), formatPermission(right)];
  return a === b ? 0 : a < b ? -1 : 1;
};

const unique = (permissions: readonly Permission[]) => [...new Map(permissions.map((permission) => [formatPermission(permission), permission])).values()].sort(byText);

const sameAction = (left: Permission, right: Permission) => left.slug === right.slug && left.action === right.action;

/**
 * The conditioned part of `(granted − denied)`, where on an action the records allowed are
 * (any grant's condition) and not (any deny's condition): a conditioned grant adds records
 * unless a plain grant already gives them all or a plain deny takes them all; a conditioned deny
 * stays, as an exclusion, only where something grants the action, and cancels a grant of the
 * same condition outright.
 */
export function subtractConditioned(plainGranted: PermissionPatterns, plainDenied: PermissionPatterns, granted: readonly Permission[], denied: readonly Permission[]): ConditionedPermissions {
  const plainHeld = (permission: Permission) => plainGranted.covers(permission) && !plainDenied.covers(permission);
  const denies = unique(denied).filter((deny) => !plainDenied.covers(deny));
  const cancelled = (grant: Permission) => denies.some((deny) => sameAction(deny, grant) && deny.condition === grant.condition);
  const grants = unique(granted).filter((grant) => !plainDenied.covers(grant) && !plainHeld(grant) && !cancelled(grant));
  const exclusions = denies.filter((deny) => plainHeld(deny) || grants.some((grant) => sameAction(grant, deny)));
  return { grants, exclusions };
}
