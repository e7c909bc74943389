import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abilityPermits, compileAbility, effectivePermissions, packAbilityRules, unpackAbility } from '@gatehouse/engine';

// A small universe makes collisions between grants and denies likely. `tags` and `archive`
// never appear in a permission, so they stand for every slug and action nobody mentioned.
const SLUGS = ['posts', 'comments', 'users'];
const ACTIONS = ['index', 'show', 'store', 'update', 'destroy', 'trashed', 'restore', 'forceDelete', 'publish'];
const CHECK_SLUGS = [...SLUGS, 'tags'];
const CHECK_ACTIONS = [...ACTIONS, 'archive'];

const permission = fc.oneof(
  fc.constant('*'),
  fc.constantFrom(...SLUGS).map((slug) => `${slug}.*`),
  fc.tuple(fc.constantFrom(...SLUGS), fc.constantFrom(...ACTIONS)).map(([slug, action]) => `${slug}.${action}`),
);
const permissionList = fc.array(permission, { maxLength: 8 });
const sources = fc.record({ role: permissionList, granted: permissionList, denied: permissionList });

interface Sources {
  role: string[];
  granted: string[];
  denied: string[];
}

// The specification, read literally: a permission string matches a check when it is `*`, or
// names the slug with `*`, or names the slug and the action.
function matches(permissionString: string, slug: string, action: string): boolean {
  return permissionString === '*' || permissionString === `${slug}.*` || permissionString === `${slug}.${action}`;
}

function oracle({ role, granted, denied }: Sources, slug: string, action: string): boolean {
  const allowed = role.some((p) => matches(p, slug, action)) || granted.some((p) => matches(p, slug, action));
  return allowed && !denied.some((p) => matches(p, slug, action));
}

function everyCheck(): [string, string][] {
  return CHECK_SLUGS.flatMap((slug) => CHECK_ACTIONS.map((action): [string, string] => [slug, action]));
}

describe('compileAbility against a brute-force oracle', () => {
  it('answers every check exactly as (role ∪ granted) − denied', () => {
    fc.assert(
      fc.property(sources, fc.array(fc.tuple(fc.constantFrom(...CHECK_SLUGS), fc.constantFrom(...CHECK_ACTIONS)), { maxLength: 20 }), (input, randomChecks) => {
        const ability = compileAbility(effectivePermissions(input));
        for (const [slug, action] of [...randomChecks, ...everyCheck()]) {
          expect(ability.can(action, slug), `${slug}.${action} for ${JSON.stringify(input)}`).toBe(oracle(input, slug, action));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('answers the same after packing for the browser', () => {
    fc.assert(
      fc.property(sources, (input) => {
        const rebuilt = unpackAbility(JSON.parse(JSON.stringify(packAbilityRules(compileAbility(effectivePermissions(input))))));
        for (const [slug, action] of everyCheck()) expect(rebuilt.can(action, slug)).toBe(oracle(input, slug, action));
      }),
      { numRuns: 1000 },
    );
  });

  it('holds a wildcard exactly when the oracle allows every check it covers', () => {
    fc.assert(
      fc.property(sources, (input) => {
        const ability = compileAbility(effectivePermissions(input));
        for (const slug of CHECK_SLUGS) {
          const whole = CHECK_ACTIONS.every((action) => oracle(input, slug, action));
          expect(abilityPermits(ability, `${slug}.*`)).toBe(whole);
        }
        expect(abilityPermits(ability, '*')).toBe(everyCheck().every(([slug, action]) => oracle(input, slug, action)));
      }),
      { numRuns: 2000 },
    );
  });

  it('lists the same permissions whatever the input order', () => {
    fc.assert(
      fc.property(sources, (input) => {
        const reversed = { role: [...input.role].reverse(), granted: [...input.granted].reverse(), denied: [...input.denied].reverse() };
        expect(effectivePermissions(reversed)).toEqual(effectivePermissions(input));
      }),
      { numRuns: 1000 },
    );
  });
});
