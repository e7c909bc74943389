import { useAbility as useProvidedAbility } from '@casl/react';
import { useEffect } from 'react';
import { abilityRules, type GatehouseAbility } from '../ability/gatehouse-ability.js';
import { useUserRole } from './use-user-role.js';

/**
 * The caller's ability in the selected organization: the one `AuthProvider` hands to
 * `@casl/react`, loaded with the caller's rules once they arrive (it allows nothing before).
 * Model-level actions (index, store, trashed) follow the server's policies (`abilities`); record
 * conditions follow the permission rules. Components using it re-render when either changes.
 */
export function useAbility(): GatehouseAbility {
  const role = useUserRole().data;
  const rules = role?.rules;
  const abilities = role?.abilities;
  const ability = useProvidedAbility<GatehouseAbility>();
  useEffect(() => {
    ability.update(abilityRules(rules, abilities));
  }, [ability, rules, abilities]);
  return ability;
}
