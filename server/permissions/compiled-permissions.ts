import {
  accessPlan,
  compileAbility,
  CONDITION_SEPARATOR,
  effectivePermissions,
  EMPTY_CATALOG,
  NO_CONTEXT,
  type AccessPlan,
  type GatehouseAbility,
  type PermissionSources,
  type RuleConditions,
} from '@gatehouse/engine';
import { LRUCache } from 'lru-cache';
import { identityOf } from '../db/statements/statement-cache.js';

/**
 * What the remembered abilities may take, by the account below: 32 MiB. Permission lists come
 * from the database, where administrators write them, so the bound is on their size and not on
 * how many there are.
 */
export const REMEMBERED_BYTES = 32 * 1024 * 1024;

export interface CompiledPermissions {
  readonly permissions: readonly string[];
  readonly ability: GatehouseAbility;
  /** Whether the lists hold a conditioned permission (`posts.update:own`), whose condition the statements over that model add. */
  readonly conditioned: boolean;
  /** Which records of `slug` the caller may `action`: all, none, or a condition (its facts filled in). */
  plan(slug: string, action: string): AccessPlan;
}

/**
 * An entry's account of the heap it holds: its key (two bytes a character, counted twice for
 * the parsed copies), a compiled rule per entry of the lists and a fixed part for the ability.
 * Measured on Node 20, it is above what an entry really takes, for short lists and maximal ones.
 */
const entrySize = (key: string, entries: number) => 1024 + 1024 * entries + 4 * key.length;

const NO_CONDITIONS: RuleConditions = { catalog: EMPTY_CATALOG, context: NO_CONTEXT };

/**
 * Every member of a role with the same grants and denials holds the same ability, yet each
 * request would subtract and compile it again. The result depends on the lists alone, so it is
 * kept by them: a changed membership reads other lists from the database and finds (or makes)
 * another ability at once. Conditioned permissions (`posts.update:own`) also depend on the
 * models' conditions and the caller's facts, which then key the entry too. Nothing changes an
 * ability once made, so requests share it. The least recently used go first once the entries'
 * sizes pass REMEMBERED_BYTES.
 */
const remembered = new LRUCache<string, CompiledPermissions>({ maxSize: REMEMBERED_BYTES });
const compiled = { asked: 0, abilities: 0, plans: 0 };

export function compiledPermissions({ role, granted = [], denied = [] }: PermissionSources, conditions: RuleConditions = NO_CONDITIONS): CompiledPermissions {
  compiled.asked += 1;
  const lists = [[...role], [...granted], [...denied]];
  const conditioned = lists.some((list) => list.some((permission) => permission.includes(CONDITION_SEPARATOR)));
  const key = JSON.stringify(conditioned ? [lists, identityOf(conditions.catalog), conditions.context] : lists);
  let entry = remembered.get(key);
  if (!entry) {
    compiled.abilities += 1;
    const permissions = Object.freeze(effectivePermissions({ role, granted, denied }));
    const plans = new Map<string, AccessPlan>();
    entry = {
      permissions,
      ability: compileAbility(permissions, conditions),
      conditioned,
      plan(slug, action) {
        const asked = `${slug}.${action}`;
        let plan = plans.get(asked);
        if (plan === undefined) {
          compiled.plans += 1;
          plans.set(asked, (plan = accessPlan(permissions, slug, action, conditions.catalog, conditions.context)));
        }
        return plan;
      },
    };
    remembered.set(key, entry, { size: entrySize(key, lists.flat().length) });
  }
  return entry;
}

/**
 * How many abilities were asked for, and how many of them (and plans of theirs) were compiled
 * rather than found: what a test reads to see them shared between requests, and asked for once
 * per request.
 */
export const compilations = (): Readonly<typeof compiled> => ({ ...compiled });

/** The remembered abilities' accounted size, in bytes: never above REMEMBERED_BYTES. */
export const rememberedSize = (): number => remembered.calculatedSize;
