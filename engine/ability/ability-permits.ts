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
