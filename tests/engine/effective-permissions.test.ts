import { describe, expect, it } from 'vitest';
import { compileAbility, effectivePermissions, InvalidPermissionError } from '@gatehouse/engine';

describe('effectivePermissions', () => {
  it('unites role and granted permissions, deduplicated and sorted', () => {
    expect(
      effectivePermissions({ role: ['posts.show', 'posts.index', 'posts.index'], granted: ['comments.store', 'posts.show'] }),
    ).toEqual(['comments.store', 'posts.index', 'posts.show']);
  });

  it('gives the same list whatever the input order', () => {
    const forward = effectivePermissions({ role: ['b.x', 'a.*', '*'], granted: ['c.y'], denied: ['c.z', 'a.q'] });
    const backward = effectivePermissions({ role: ['*', 'a.*', 'b.x'], granted: ['c.y'], denied: ['a.q', 'c.z'] });
    expect(forward).toEqual(backward);
    expect(forward).toEqual(['*', '!a.q', '!c.z']);
  });

  it('works with only a role and with any iterable', () => {
    expect(effectivePermissions({ role: new Set(['posts.index']) })).toEqual(['posts.index']);
    expect(effectivePermissions({ role: [] })).toEqual([]);
  });

  it('drops a plain permission that a wildcard in the same set already covers', () => {
    expect(effectivePermissions({ role: ['posts.*', 'posts.index'], granted: ['posts.update'] })).toEqual(['posts.*']);
    expect(effectivePermissions({ role: ['*', 'posts.*', 'comments.index'] })).toEqual(['*']);
  });

  it('lets a deny remove a plain grant', () => {
    expect(effectivePermissions({ role: ['posts.index', 'posts.destroy'], denied: ['posts.destroy'] })).toEqual(['posts.index']);
  });

  it('lets a deny win over a granted permission too', () => {
    expect(effectivePermissions({ role: [], granted: ['comments.store'], denied: ['comments.store'] })).toEqual([]);
  });

  it('lets a deny win over {slug}.*, keeping every other action of the slug', () => {
    const permissions = effectivePermissions({ role: ['posts.*', 'comments.*', 'users.index'], denied: ['posts.forceDelete'] });
    expect(permissions).toEqual(['comments.*', 'posts.*', 'users.index', '!posts.forceDelete']);
    const ability = compileAbility(permissions);
    expect(ability.can('forceDelete', 'posts')).toBe(false);
    expect(ability.can('destroy', 'posts')).toBe(true);
    expect(ability.can('publish', 'posts')).toBe(true);
  });

  it('lets a deny win over *', () => {
    const permissions = effectivePermissions({ role: ['*'], denied: ['posts.forceDelete'] });
    expect(permissions).toEqual(['*', '!posts.forceDelete']);
    const ability = compileAbility(permissions);
    expect(ability.can('forceDelete', 'posts')).toBe(false);
    expect(ability.can('index', 'posts')).toBe(true);
    expect(ability.can('forceDelete', 'comments')).toBe(true);
    expect(ability.can('anything', 'anywhere')).toBe(true);
  });

  it('lets a wildcard deny remove every action it covers, custom ones included', () => {
    const permissions = effectivePermissions({
      role: ['posts.index', 'posts.publish', 'comments.index'],
      granted: ['posts.*'],
      denied: ['posts.*'],
    });
    expect(permissions).toEqual(['comments.index']);
    expect(effectivePermissions({ role: ['*'], denied: ['posts.*'] })).toEqual(['*', '!posts.*']);
    const ability = compileAbility(effectivePermissions({ role: ['*'], denied: ['posts.*'] }));
    expect(ability.can('publish', 'posts')).toBe(false);
    expect(ability.can('index', 'posts')).toBe(false);
    expect(ability.can('index', 'comments')).toBe(true);
  });

  it('lets a deny of * remove everything', () => {
    expect(effectivePermissions({ role: ['*', 'posts.index'], granted: ['comments.*'], denied: ['*'] })).toEqual([]);
  });

  it('drops denies that touch nothing granted, and denies inside a wider deny', () => {
    expect(effectivePermissions({ role: ['posts.index'], denied: ['comments.index', 'users.*'] })).toEqual(['posts.index']);
    expect(effectivePermissions({ role: ['*'], denied: ['posts.*', 'posts.show'] })).toEqual(['*', '!posts.*']);
  });

  it.each([
    ['role', { role: ['posts.index', 'posts index'] }],
    ['granted', { role: [], granted: ['a..b'] }],
    ['denied', { role: ['*'], denied: ['.x'] }],
  ])('rejects a malformed %s permission instead of ignoring it', (_source, sources) => {
    expect(() => effectivePermissions(sources)).toThrow(InvalidPermissionError);
  });

  it('does not accept exclusions as input', () => {
    expect(() => effectivePermissions({ role: ['*', '!posts.index'] })).toThrow('it contains the character "!"');
  });
});
