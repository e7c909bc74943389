import { compileAbility, effectivePermissions, type GatehouseAbility, type PermissionSources } from '@gatehouse/engine';

/** How many distinct permission sources keep their compiled ability; the oldest goes first. */
const REMEMBERED = 1_000;

export interface CompiledPermissions {
  readonly permissions: readonly string[];
  readonly ability: GatehouseAbility;
}

/**
 * Every member of a role with the same grants and denials holds the same ability, yet each
 * request would subtract and compile it again. The result depends on the lists alone, so it is
 * kept by them: a changed membership reads other lists from the database and finds (or makes)
 * another ability at once. Nothing changes an ability once made, so requests share it.
 */
const remembered = new Map<string, CompiledPermissions>();

export function compiledPermissions({ role, granted = [], denied = [] }: PermissionSources): CompiledPermissions {
  const key = JSON.stringify([[...role], [...granted], [...denied]]);
  let compiled = remembered.get(key);
  if (!compiled) {
    const permissions = Object.freeze(effectivePermissions({ role, granted, denied }));
    compiled = { permissions, ability: compileAbility(permissions) };
    if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, compiled);
  }
  return compiled;
}
