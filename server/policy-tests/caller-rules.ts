import { subject } from '@casl/ability';
import { conditionContext, conditionsOn, packAbilityRules, unpackAbility, type AccessPlan } from '@gatehouse/engine';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import { permissionStory } from './explain-check.js';
import type { Caller, PolicyTestApp } from './test-caller.js';

/**
 * A caller's decisions on records, both ways: the CASL rules packed and unpacked as `GET
 * {t}/user-role` sends them to the browser, and the plan the server's SQL filter reads through.
 */
export function callerRules(app: PolicyTestApp, { origin, user, organization, group }: Caller): CallerRules {
  const context = conditionContext({ user, organization, routeGroup: group.name });
  const compiled = compiledPermissions({ role: origin.permissions, granted: origin.granted, denied: origin.denied }, { catalog: app.registry.conditions, context });
  const browser = unpackAbility(packAbilityRules(compiled.ability));
  return {
    allows: (slug, action, record) => browser.can(action, subject(slug, { ...record })),
    plan: (slug, action) => compiled.plan(slug, action),
    rules(slug, action) {
      const permission = `${slug}.${action}`;
      return compiled.plan(slug, action).kind === 'conditional' ? `${permission} holds by ${conditionsOn(compiled.permissions, slug, action).join(', ')}` : permissionStory(origin, permission);
    },
  };
}

export interface CallerRules {
  /** Whether the browser's CASL rules allow `action` on `record`. */
  allows(slug: string, action: string, record: object): boolean;
  /** The plan the server's SQL filter reads through. */
  plan(slug: string, action: string): AccessPlan;
  /** Which rules decide: the permission's story, or its conditioned entries. */
  rules(slug: string, action: string): string;
}
