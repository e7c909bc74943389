import { Ability, createMongoAbility } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import { describe, expect, it } from 'vitest';
import {
  abilityPermits,
  compileAbility,
  compileRules,
  effectivePermissions,
  InvalidPermissionError,
  packAbilityRules,
  unpackAbility,
  type GatehouseAbility,
} from '@gatehouse/engine';

const CHECKS: [string, string][] = [
  ['index', 'posts'],
  ['forceDelete', 'posts'],
  ['publish', 'posts'],
  ['index', 'comments'],
  ['store', 'comments'],
  ['index', 'users'],
  ['index', 'tags'],
];

function answers(ability: GatehouseAbility): boolean[] {
  return CHECKS.map(([action, slug]) => ability.can(action, slug));
}

describe('compileAbility', () => {
  it('returns a CASL ability', () => {
    expect(compileAbility(['posts.index'])).toBeInstanceOf(Ability);
  });

  it('answers a plain permission for exactly that action and slug', () => {
    const ability = compileAbility(['posts.index', 'comments.store']);
    expect(answers(ability)).toEqual([true, false, false, false, true, false, false]);
  });

  it('answers {slug}.* for every action of the slug, custom ones included', () => {
    expect(answers(compileAbility(['posts.*']))).toEqual([true, true, true, false, false, false, false]);
  });

  it('answers * for everything', () => {
    expect(answers(compileAbility(['*']))).toEqual(CHECKS.map(() => true));
  });

  it('grants nothing for an empty list', () => {
    expect(answers(compileAbility([]))).toEqual(CHECKS.map(() => false));
  });

  it('applies exclusions whatever their position in the list', () => {
    const ability = compileAbility(['!posts.forceDelete', '*', '!comments.*']);
    expect(answers(ability)).toEqual([true, false, true, false, false, true, true]);
  });

  it("writes the wildcards as CASL's own manage and all, so those are no names of their own", () => {
    expect(compileAbility(['posts.*']).rules).toEqual([{ action: ['manage'], subject: 'posts' }]);
    expect(compileAbility(['*']).rules).toEqual([{ action: ['manage'], subject: 'all' }]);
    expect(() => compileAbility(['posts.manage'])).toThrow('Invalid permission "posts.manage": "manage" is CASL\'s name for every action; write posts.* instead');
    expect(() => compileAbility(['all.index'])).toThrow('Invalid permission "all.index": "all" is CASL\'s name for every resource; write * instead');
    expect(() => compileAbility(['*', '!posts.manage'])).toThrow(InvalidPermissionError);
  });

  it('rejects a malformed permission or exclusion', () => {
    expect(() => compileAbility(['posts.index', 'posts..index'])).toThrow(InvalidPermissionError);
    expect(() => compileAbility(['*', '!posts'])).toThrow('Invalid permission "posts": it names no action');
  });
});

describe('packed rules', () => {
  const permissions = effectivePermissions({ role: ['*'], denied: ['posts.forceDelete', 'comments.*'] });
  const ability = compileAbility(permissions);
  const packed = JSON.parse(JSON.stringify(packAbilityRules(ability)));

  it('are compact JSON arrays', () => {
    expect(packed).toEqual([
      ['manage', 'all'],
      ['manage', 'comments', 0, 1],
      ['forceDelete', 'posts', 0, 1],
    ]);
  });

  it('rebuild an ability that answers the same', () => {
    expect(answers(unpackAbility(packed))).toEqual(answers(ability));
  });

  it('rebuild in a browser with CASL alone and its default options', () => {
    const browser = createMongoAbility<[string, string]>(unpackRules(packed));
    expect(CHECKS.map(([action, slug]) => browser.can(action, slug))).toEqual(answers(ability));
  });
});

describe('abilityPermits', () => {
  it('answers a plain permission like can()', () => {
    const ability = compileAbility(['posts.index']);
    expect(abilityPermits(ability, 'posts.index')).toBe(true);
    expect(abilityPermits(ability, 'posts.show')).toBe(false);
  });

  it('answers {slug}.* only when no action of the slug is missing', () => {
    expect(abilityPermits(compileAbility(['posts.*']), 'posts.*')).toBe(true);
    expect(abilityPermits(compileAbility(['*']), 'posts.*')).toBe(true);
    expect(abilityPermits(compileAbility(['posts.index', 'posts.show']), 'posts.*')).toBe(false);
    expect(abilityPermits(compileAbility(['posts.*', '!posts.forceDelete']), 'posts.*')).toBe(false);
    expect(abilityPermits(compileAbility(['*', '!posts.forceDelete']), 'posts.*')).toBe(false);
    expect(abilityPermits(compileAbility(['*', '!posts.forceDelete']), 'comments.*')).toBe(true);
  });

  it('answers * only for an unrestricted superadmin', () => {
    expect(abilityPermits(compileAbility(['*']), '*')).toBe(true);
    expect(abilityPermits(compileAbility(['*', '!posts.forceDelete']), '*')).toBe(false);
    expect(abilityPermits(compileAbility(['posts.*']), '*')).toBe(false);
  });

  it('answers the same for an ability rebuilt from packed rules', () => {
    const rebuilt = unpackAbility(packAbilityRules(compileAbility(['*', '!posts.forceDelete'])));
    expect(abilityPermits(rebuilt, 'posts.*')).toBe(false);
    expect(abilityPermits(rebuilt, 'comments.*')).toBe(true);
  });

  it('rejects a malformed question', () => {
    expect(() => abilityPermits(compileAbility(['*']), 'posts')).toThrow(InvalidPermissionError);
  });

  it('answers from the rules an ability holds now, after update()', () => {
    const ability = compileAbility(['posts.index']);
    expect(abilityPermits(ability, 'posts.index')).toBe(true);
    ability.update(compileRules(['posts.show']));
    expect(abilityPermits(ability, 'posts.index')).toBe(false);
    expect(abilityPermits(ability, 'posts.show')).toBe(true);
  });
});
