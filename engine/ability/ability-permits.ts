import { wrapArray } from '@casl/ability';
import { parsePermission } from '../permissions/parse-permission.js';
import { WILDCARD } from '../wire/wildcard.js';
import { caslAction, caslSubject, type GatehouseAbility } from './gatehouse-ability.js';

/**
 * Whether the ability holds a whole permission. For `{slug}.{action}` that is `ability.can`.
 * A wildcard question (`posts.*`, `*`) asks for every action, so a wildcard grant is not enough
 * when an exclusion has carved anything out of it, which `can` alone cannot see.
 */
export function abilityPermits(ability: GatehouseAbility, permission: string): boolean {
  const { slug, action } = parsePermission(permission);
  if (action !== WILDCARD) return ability.can(action, slug);
  const subject = caslSubject(slug);
  return (
    ability.can(caslAction(action), subject) &&
    !ability.rules.some((rule) => rule.inverted === true && (slug === WILDCARD || wrapArray(rule.subject).includes(subject)))
  );
}
