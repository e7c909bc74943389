import { useAbility as useProvidedAbility } from '@casl/react';
import { useEffect } from 'react';
import { unpackedRules, type GatehouseAbility } from '../ability/gatehouse-ability.js';
import { useUserRole } from './use-user-role.js';

/**
 * The caller's ability in the selected organization: the one `AuthProvider` hands to
 * `@casl/react`, loaded with the caller's rules once they arrive (it allows nothing before).
 * Components using it re-render when the rules change.
 */
export function useAbility(): GatehouseAbility {
  const rules = useUserRole().data?.rules;
  const ability = useProvidedAbility<GatehouseAbility>();
  useEffect(() => {
    ability.update(unpackedRules(rules));
  }, [ability, rules]);
  return ability;
}
