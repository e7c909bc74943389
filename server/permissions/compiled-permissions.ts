import { compileAbility, effectivePermissions, type GatehouseAbility, type PermissionSources } from '@gatehouse/engine';
import { LRUCache } from 'lru-cache';

/**
 * What the remembered abilities may take, by the account below: 32 MiB. Permission lists come
 * from the database, where administrators write them, so the bound is on their size and not on
 * how many there are.
 */
export const REMEMBERED_BYTES = 32 * 1024 * 1024;

export interface CompiledPermissions {
  readonly permissions: readonly string[];
  readonly ability: GatehouseAbility;
}

/**
 * An entry's account of the heap it holds: its key (two bytes a character, counted twice for
 * the parsed copies), a compiled rule per entry of the lists and a fixed part for the ability.
 * Measured on Node 20, it is above what an entry really takes, for short lists and maximal ones.
 */
const entrySize = (key: string, entries: number) => 1024 + 1024 * entries + 4 * key.length;

/**
 * Every member of a role with the same grants and denials holds the same ability, yet each
 * request would subtract and compile it again. The result depends on the lists alone, so it is
 * kept by them: a changed membership reads other lists from the database and finds (or makes)
 * another ability at once. Nothing changes an ability once made, so requests share it. The
 * least recently used go first once the entries' sizes pass REMEMBERED_BYTES.
 */
const remembered = new LRUCache<string, CompiledPermissions>({ maxSize: REMEMBERED_BYTES });

export function compiledPermissions({ role, granted = [], denied = [] }: PermissionSources): CompiledPermissions {
  const lists = [[...role], [...granted], [...denied]];
  const key = JSON.stringify(lists);
  let compiled = remembered.get(key);
  if (!compiled) {
    const permissions = Object.freeze(effectivePermissions({ role, granted, denied }));
    compiled = { permissions, ability: compileAbility(permissions) };
    remembered.set(key, compiled, { size: entrySize(key, lists.flat().length) });
  }
  return compiled;
}

/** The remembered abilities' accounted size, in bytes: never above REMEMBERED_BYTES. */
export const rememberedSize = (): number => remembered.calculatedSize;
