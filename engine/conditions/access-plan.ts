import { EXCLUSION_PREFIX, parsePermissionEntries } from '../permissions/permission-entries.js';
import { CONDITION_SEPARATOR, type Permission } from '../permissions/parse-permission.js';
import type { ConditionCatalog } from './condition-catalog.js';
import { FALSE, TRUE, type ConditionNode } from './condition-tree.js';
import { combine, negate, resolveCondition, type ConditionContext } from './resolve-condition.js';

/**
 * Which records of a model a caller may act on: all of them, none, or those a condition matches
 * (the caller's facts filled in). The one answer the CASL rules, the SQL filter, `authorize`'s
 * plan and explain all derive from.
 */
export type AccessPlan = { readonly kind: 'always' } | { readonly kind: 'never' } | { readonly kind: 'conditional'; readonly condition: ConditionNode };

export const ALWAYS: AccessPlan = Object.freeze({ kind: 'always' });
export const NEVER: AccessPlan = Object.freeze({ kind: 'never' });

/**
 * A conditioned permission's tree for a caller. One the policy does not (or no longer) declares
 * fails closed: as a grant it matches nothing, as a deny (`denied`) every record, so renaming a
 * condition never hands back what a deny of it took away.
 */
export function conditionOf(permission: Permission, catalog: ConditionCatalog, context: ConditionContext, denied = false): ConditionNode {
  const node = permission.condition === undefined ? undefined : catalog.condition(permission.slug, permission.condition);
  if (node === undefined) return denied ? TRUE : FALSE;
  return resolveCondition(node, context);
}

/**
 * The plan of `{slug}.{action}` for an effective permission list (`effectivePermissions`):
 * (a plain grant, or any conditioned grant's condition) and not (any conditioned exclusion's).
 * A plain exclusion has already removed the action from the list's plain grants.
 */
export function accessPlan(permissions: Iterable<string>, slug: string, action: string, catalog: ConditionCatalog, context: ConditionContext): AccessPlan {
  const { granted, excluded } = parsePermissionEntries(permissions);
  const asked = { slug, action };
  const on = (permission: Permission) => permission.slug === slug && permission.action === action;
  const plainHeld = granted.patterns.covers(asked) && !excluded.patterns.covers(asked);
  const grants = plainHeld ? [negate(FALSE)] : granted.conditioned.filter(on).map((permission) => conditionOf(permission, catalog, context));
  const denies = excluded.conditioned.filter(on).map((permission) => conditionOf(permission, catalog, context, true));
  return planOf(combine('and', [combine('or', grants), negate(combine('or', denies))]));
}

export function planOf(condition: ConditionNode): AccessPlan {
  if (condition.op === 'true') return ALWAYS;
  if (condition.op === 'false') return NEVER;
  return { kind: 'conditional', condition };
}

const conditionOfPlan = (plan: AccessPlan): ConditionNode => (plan.kind === 'conditional' ? plan.condition : plan.kind === 'always' ? TRUE : FALSE);

/**
 * The records a list reads once its gates allowed it: through the plan's condition, or else every
 * record (a policy's code may open a list to a caller whose permissions give it none).
 */
export const allowedListPlan = (plan: AccessPlan): AccessPlan => (plan.kind === 'conditional' ? plan : ALWAYS);

/**
 * The records a record action's request may act on: it reads its record through `show`'s
 * condition (a 404 outside it), then checks the action. Without a condition on `show` the read
 * narrows nothing (a caller who may not show a record may still update it, as with plain
 * permissions), so the action's plan alone decides.
 */
export const recordActionPlan = (show: AccessPlan, action: AccessPlan): AccessPlan =>
  show.kind === 'conditional' ? planOf(combine('and', [show.condition, conditionOfPlan(action)])) : action;

/** The conditioned entries of an effective list on `{slug}.{action}`, grants then exclusions: what a refusal on a record names. */
export function conditionsOn(permissions: Iterable<string>, slug: string, action: string): string[] {
  const prefix = `${slug}.${action}${CONDITION_SEPARATOR}`;
  const entries = [...permissions];
  return [...entries.filter((entry) => entry.startsWith(prefix)), ...entries.filter((entry) => entry.startsWith(EXCLUSION_PREFIX + prefix))];
}
