import { useMemo } from 'react';
import { buildAbility, type GatehouseAbility } from '../ability/gatehouse-ability.js';
import { useUserRole } from './use-user-role.js';

/** The caller's ability in the selected organization; it allows nothing until the role has loaded. */
export function useAbility(): GatehouseAbility {
  const rules = useUserRole().data?.rules;
  return useMemo(() => buildAbility(rules), [rules]);
}
