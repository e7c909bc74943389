import { abilityPermits, type GatehouseAbility } from '@gatehouse/engine';
import { useAbility } from '@gatehouse/client';

/**
 * Whether the signed-in member holds a permission, by the rule the server applies to every
 * change: nobody adds or takes away a permission they do not hold themself.
 */
export function useHolds(): (permission: string) => boolean {
  const ability: GatehouseAbility = useAbility();
  return (permission) => abilityPermits(ability, permission);
}
