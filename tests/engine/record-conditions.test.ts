import { createMongoAbility, subject } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import { describe, expect, it } from 'vitest';
import {
  abilityPermits,
  accessPlan,
  compileAbility,
  conditionContext,
  effectivePermissions,
  InvalidConditionError,
  packAbilityRules,
  parsePermission,
  unpackAbility,
  type RecordConditions,
} from '@gatehouse/engine';
import { catalogOf } from './condition-shapes.js';

const context = conditionContext({ user: { id: 7 }, organization: { id: 1, slug: 'acme' }, routeGroup: 'tenant' });
const abilityOf = (role: string[], denied: string[] = []) => compileAbility(effectivePermissions({ role, denied }), { catalog: catalogOf(), context });
const post = (fields: Record<string, unknown>) => subject('posts', { id: 1, title: 't', status: 'draft', author_id: 3, score: 0, pinned: false, comments: [], author: null, ...fields });

describe('declared record conditions', () => {
  it.each<[RecordConditions[string], string]>([
    [{ writer_id: 1 }, 'posts has no attribute or relation "writer_id"'],
    [{ status: { like: 'p%' } }, 'unknown operator "like" on status'],
    [{ comments: { any: {} } }, 'unknown relation operator "any" on "comments"'],
    [{ comments: { some: { spam: true } } }, 'comments has no attribute or relation "spam"'],
    [{ author_id: 'seven' }, 'author_id is integer, got "seven"'],
    [{ author_id: { context: 'user.email' } }, 'unknown context "user.email"'],
    [{ status: { context: 'user.id' } }, 'status is string, but context user.id is integer'],
    [{ title: { lt: 'm' } }, '"lt" needs an integer attribute; title is string'],
    [{ deleted_at: '2026-01-01' }, 'deleted_at is timestamp: only null checks are offered on it'],
    [{ or: [] }, '"or" takes a non-empty array of conditions'],
    // Values a policy may compute: named as they are, never taken for a condition or a test.
    [{ deleted_at: new Date('2026-01-01') as never }, 'deleted_at is timestamp: only null checks are offered on it'],
    [{ title: new Date('2026-01-01') as never }, 'title is string, got a Date'],
    [{ not: new Date('2026-01-01') as never }, 'a condition must be an object, got a Date'],
    [{ author_id: Number.NaN }, 'author_id is integer, got NaN'],
  ])('refuses %j when the model is registered', (condition, reason) => {
    const registering = () => catalogOf({ bad: condition });
    expect(registering).toThrow(InvalidConditionError);
    expect(registering).toThrow(`Condition posts:bad is invalid: ${reason}`);
  });

  it('refuses a bigint, naming it', () => {
    expect(() => catalogOf({ bad: { author_id: { in: [7n as never] } } })).toThrow('Condition posts:bad is invalid: author_id is integer, got the bigint 7');
  });

  it('normalizes a declaration to the documented tree', () => {
    expect(catalogOf().condition('posts', 'visible')).toEqual({
      op: 'or',
      conditions: [
        { op: 'eq', attribute: 'status', value: 'published' },
        { op: 'eq', attribute: 'author_id', value: { context: 'user.id' } },
      ],
    });
    expect(catalogOf({ gone: { deleted_at: null, score: { gte: 1, ne: 5 } } }).condition('posts', 'gone')).toEqual({
      op: 'and',
      conditions: [
        { op: 'null', attribute: 'deleted_at' },
        { op: 'and', conditions: [{ op: 'gte', attribute: 'score', value: 1 }, { op: 'ne', attribute: 'score', value: 5 }] },
      ],
    });
  });
});

describe('conditioned permissions', () => {
  it('parses {slug}.{action}:{condition} and refuses a condition on a wildcard', () => {
    expect(parsePermission('posts.update:own')).toEqual({ slug: 'posts', action: 'update', condition: 'own' });
    expect(() => parsePermission('posts.*:own')).toThrow('a condition is only allowed on {slug}.{action}, not on a wildcard');
    expect(() => parsePermission('posts.update:')).toThrow('it names an empty condition');
    expect(() => parsePermission('posts.update:a:b')).toThrow('it has more than one ":"');
  });

  it('lets a grant widen and a deny win', () => {
    expect(effectivePermissions({ role: ['posts.update:own', 'posts.update:published'] })).toEqual(['posts.update:own', 'posts.update:published']);
    expect(effectivePermissions({ role: ['posts.update', 'posts.update:own'] })).toEqual(['posts.update']);
    expect(effectivePermissions({ role: ['posts.*', 'posts.update:own'] })).toEqual(['posts.*']);
    expect(effectivePermissions({ role: ['posts.update:own'], denied: ['posts.update'] })).toEqual([]);
    expect(effectivePermissions({ role: ['posts.update:own'], denied: ['posts.update:own'] })).toEqual([]);
    expect(effectivePermissions({ role: ['*'], denied: ['posts.update:published'] })).toEqual(['*', '!posts.update:published']);
    expect(effectivePermissions({ role: ['posts.update:own'], denied: ['posts.update:published', 'posts.destroy:own'] })).toEqual(['posts.update:own', '!posts.update:published']);
  });

  it('checks a record against the conditions of its grants, minus those of its denies', () => {
    const ability = abilityOf(['posts.update:own', 'posts.update:published'], ['posts.update:low']);
    expect(ability.can('update', post({ author_id: 7, score: 50 }))).toBe(true);
    expect(ability.can('update', post({ status: 'published', score: 50 }))).toBe(true);
    expect(ability.can('update', post({ author_id: 7, score: 3 }))).toBe(false);
    expect(ability.can('update', post({ author_id: 8, score: 50 }))).toBe(false);
    expect(ability.can('update', 'posts')).toBe(true);
  });

  it('does not count a conditioned grant as the whole permission', () => {
    const ability = abilityOf(['posts.update:own', 'posts.index']);
    expect(abilityPermits(ability, 'posts.update')).toBe(false);
    expect(abilityPermits(ability, 'posts.update:own')).toBe(true);
    expect(abilityPermits(ability, 'posts.update:published')).toBe(false);
    expect(abilityPermits(ability, 'posts.index')).toBe(true);
    expect(abilityPermits(abilityOf(['*'], ['posts.update:own']), 'posts.update')).toBe(false);
  });

  it('matches nothing through a condition the policy does not declare', () => {
    const ability = abilityOf(['posts.update:retired']);
    expect(ability.can('update', post({ author_id: 7 }))).toBe(false);
    expect(accessPlan(['posts.update:retired'], 'posts', 'update', catalogOf(), context)).toEqual({ kind: 'never' });
  });

  it('denies every record through a deny of a condition the policy no longer declares', () => {
    const permissions = effectivePermissions({ role: ['posts.update', 'posts.show'], denied: ['posts.update:retired'] });
    const ability = compileAbility(permissions, { catalog: catalogOf(), context });
    expect(ability.can('update', post({ author_id: 7 }))).toBe(false);
    expect(ability.can('show', post({ author_id: 7 }))).toBe(true);
    expect(accessPlan(permissions, 'posts', 'update', catalogOf(), context)).toEqual({ kind: 'never' });
    // The rules a browser receives say the same.
    expect(unpackAbility(packAbilityRules(ability)).can('update', post({ author_id: 7 }))).toBe(false);
  });

  it('answers every on an empty relation as true and none as true (CASL issue 1073)', () => {
    const ability = abilityOf(['posts.update:clean', 'posts.destroy:unflagged', 'posts.show:discussed']);
    expect(ability.can('update', post({ comments: [] }))).toBe(true);
    expect(ability.can('update', post({ comments: [{ flagged: false }, { flagged: true }] }))).toBe(false);
    expect(ability.can('destroy', post({ comments: [] }))).toBe(true);
    expect(ability.can('destroy', post({ comments: [{ flagged: true }] }))).toBe(false);
    expect(ability.can('show', post({ comments: [] }))).toBe(false);
    expect(ability.can('show', post({ comments: [{ flagged: true }] }))).toBe(true);
  });

  it('answers null as SQL does, two-valued: an ordering is false on null, its negation true', () => {
    const ability = abilityOf(['posts.update:low', 'posts.destroy:unpinned', 'posts.show:authored']);
    expect(ability.can('update', post({ score: null }))).toBe(false);
    expect(abilityOf(['posts.update'], ['posts.update:low']).can('update', post({ score: null }))).toBe(true);
    expect(ability.can('destroy', post({ pinned: null }))).toBe(true);
    expect(ability.can('show', post({ author: null }))).toBe(false);
    expect(ability.can('show', post({ author: { name: 'Edith' } }))).toBe(true);
  });

  it('gives a guest nothing through a condition on user.id', () => {
    const guest = compileAbility(['posts.update:own'], { catalog: catalogOf(), context: conditionContext({ user: null, organization: null, routeGroup: null }) });
    expect(guest.can('update', post({ author_id: null }))).toBe(false);
  });

  it('answers every test against a fact the caller lacks as false, ne and nin alike', () => {
    const guest = conditionContext({ user: null, organization: null, routeGroup: null });
    const catalog = catalogOf({ not_mine: { author_id: { ne: { context: 'user.id' } } }, none_mine: { author_id: { nin: [{ context: 'user.id' }, 9] } }, mine_or_9: { author_id: { in: [{ context: 'user.id' }, 9] } } });
    const plan = (condition: string) => accessPlan([`posts.update:${condition}`], 'posts', 'update', catalog, guest);
    expect(plan('not_mine')).toEqual({ kind: 'never' });
    expect(plan('none_mine')).toEqual(plan('not_mine'));
    expect(plan('mine_or_9')).toEqual({ kind: 'conditional', condition: { op: 'in', attribute: 'author_id', values: [9] } });
  });

  it('packs the conditions for the browser, which answers the same', () => {
    const ability = abilityOf(['posts.update:visible', 'posts.destroy:clean'], ['posts.update:low']);
    const browser = unpackAbility(packAbilityRules(ability));
    for (const record of [post({ author_id: 7, score: 40 }), post({ status: 'published', score: 2 }), post({ comments: [{ flagged: true }] }), post({ author_id: 8, score: 40 })]) {
      expect(browser.can('update', record)).toBe(ability.can('update', record));
      expect(browser.can('destroy', record)).toBe(ability.can('destroy', record));
    }
  });
});

describe('rules for any CASL app', () => {
  // Tests joined by and, a top-level or and the not of one test: CASL's own operators, no $and, $or or $nor.
  const plain = catalogOf({
    visible: { or: [{ status: 'published' }, { author_id: { context: 'user.id' } }] },
    mine: { author_id: { context: 'user.id' }, status: { in: ['draft', 'review'] } },
    kept: { not: { status: 'archived' }, pinned: { null: false } },
    open: { or: [{ not: { status: { in: ['archived', 'spam'] } } }, { score: { gte: 5, lt: 10 } }] },
  });
  const records = [
    ...['published', 'draft', 'review', 'archived', 'spam', null].flatMap((status) => [3, 7, null].map((author_id) => ({ status, author_id }))),
    ...[null, 4, 5, 9, 10].flatMap((score) => [true, null].map((pinned) => ({ status: 'spam', score, pinned }))),
  ].map((fields): Record<string, unknown> => ({ id: 1, title: 't', author_id: 3, score: 0, pinned: false, ...fields }));

  it.each<[string[], string[]]>([
    [['posts.show:visible', 'posts.update:mine', 'posts.destroy:kept', 'posts.restore:open'], []],
    [['posts.*'], ['posts.show:visible', 'posts.update:mine', 'posts.destroy:kept', 'posts.restore:open']],
  ])('answers grants %j and denies %j with default options as the server does', (role, denied) => {
    const server = compileAbility(effectivePermissions({ role, denied }), { catalog: plain, context });
    const packed = packAbilityRules(server);
    expect(JSON.stringify(packed)).not.toMatch(/\$(and|or|nor)\b/);
    const casl = createMongoAbility(unpackRules(packed));
    for (const action of ['show', 'update', 'destroy', 'restore']) {
      const answers = records.map((record) => [record, casl.can(action, subject('posts', { ...record }))]);
      expect(answers).toEqual(records.map((record) => [record, server.can(action, subject('posts', { ...record }))]));
    }
  });
});

describe('accessPlan', () => {
  const catalog = catalogOf();
  it('answers always, never or the condition with the caller resolved', () => {
    expect(accessPlan(['*'], 'posts', 'update', catalog, context)).toEqual({ kind: 'always' });
    expect(accessPlan(['posts.index'], 'posts', 'update', catalog, context)).toEqual({ kind: 'never' });
    expect(accessPlan(effectivePermissions({ role: ['posts.update:own'], denied: ['posts.update:published'] }), 'posts', 'update', catalog, context)).toEqual({
      kind: 'conditional',
      condition: {
        op: 'and',
        conditions: [
          { op: 'eq', attribute: 'author_id', value: 7 },
          { op: 'not', condition: { op: 'eq', attribute: 'status', value: 'published' } },
        ],
      },
    });
  });
});
