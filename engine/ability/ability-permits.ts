import { wrapArray } from '@casl/ability';
import { parsePermission } from '../permissions/parse-permission.js';
import { WILDCARD } from '../wire/wildcard.js';
import { caslAction, caslSubject, type GatehouseAbility } from './gatehouse-ability.js';

/**
 * Whether the ability holds a whole permission. For `{slug}.{action}` that is `ability.can` on
 * every record: no conditioned rule limits it. A conditioned permission (`posts.update:own`) is
 * held through the whole action or through that very grant with no exclusion carved from it. A
 * wildcard question (`posts.*`, `*`) asks for every action, so a wildcard grant is not enough
 * when an exclusion has carved anything out of it, which `can` alone cannot see.
 */
export function abilityPermits(ability: GatehouseAbility, permission: string): boolean {
  const answers = answersOf(ability);
  let permits = answers.get(permission);
  if (permits === undefined) {
    permits = permitsNow(ability, permission);
    if (answers.size < REMEMBERED_PERMISSIONS) answers.set(permission, permits);
  }
  return permits;
}

/**
 * How many answers an ability keeps. A policy asks the same few permissions on every request
 * (`hasPermission` in its attribute gates), which an ability shared between requests then
 * answers without parsing and matching them again; a caller naming endless others is answered
 * each time.
 */
const REMEMBERED_PERMISSIONS = 64;

const remembered = new WeakMap<GatehouseAbility, Map<string, boolean>>();

/** The ability's remembered answers, forgotten whenever its rules change (`ability.update`). */
function answersOf(ability: GatehouseAbility): Map<string, boolean> {
  let answers = remembered.get(ability);
  if (!answers) {
    remembered.set(ability, (answers = new Map()));
    ability.on('updated', () => remembered.delete(ability));
  }
  return answers;
}

function permitsNow(ability: GatehouseAbility, permission: string): boolean {
  const { slug, action, condition } = parsePermission(permission);
  if (action !== WILDCARD) {
    if (!ability.can(action, slug)) return false;
    const rules = ability.rulesFor(action, slug);
    const whole = rules.every((rule) => rule.conditions === undefined);
    return condition === undefined ? whole : whole || (rules.every((rule) => rule.inverted !== true) && rules.some((rule) => rule.reason === permission));
  }
  const subject = caslSubject(slug);
  return (
    ability.can(caslAction(action), subject) &&
    !ability.rules.some((rule) => rule.inverted === true && (slug === WILDCARD || wrapArray(rule.subject).includes(subject)))
  );
}
