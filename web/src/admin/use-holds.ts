import { abilityPermits, compileAbility } from '@gatehouse/engine';
import { useUserRole } from '@gatehouse/client';
import { useMemo } from 'react';

const NONE: readonly string[] = [];

/**
 * Whether the signed-in member holds a permission, by the rule the server applies to every
 * change: nobody adds or takes away a permission they do not hold themself. The server reads it
 * from the member's permissions alone, never from the policies' abilities (an owner holding `*`
 * holds `users.store` though no policy lets anyone create users), so this compiles the same list.
 */
export function useHolds(): (permission: string) => boolean {
  const permissions = useUserRole().data?.permissions ?? NONE;
  return useMemo(() => {
    const ability = compileAbility(permissions);
    return (permission: string) => abilityPermits(ability, permission);
  }, [permissions]);
}
