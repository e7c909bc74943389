import { describe, expect, it } from 'vitest';
import { formatPermission, InvalidPermissionError, isValidPermission, parsePermission } from '@gatehouse/engine';
import { errorThrownBy } from './support.js';

describe('parsePermission', () => {
  it.each([
    ['posts.index', { slug: 'posts', action: 'index' }],
    ['posts.forceDelete', { slug: 'posts', action: 'forceDelete' }],
    ['posts.*', { slug: 'posts', action: '*' }],
    ['*', { slug: '*', action: '*' }],
    ['posts.publish', { slug: 'posts', action: 'publish' }],
    ['blog_posts.mark-read', { slug: 'blog_posts', action: 'mark-read' }],
    ['v2.do_it', { slug: 'v2', action: 'do_it' }],
  ])('parses %s', (permission, parsed) => {
    expect(parsePermission(permission)).toEqual(parsed);
    expect(isValidPermission(permission)).toBe(true);
    expect(formatPermission(parsed)).toBe(permission);
  });

  it.each([
    ['', 'it is empty'],
    [' ', 'it contains whitespace'],
    ['posts. index', 'it contains whitespace'],
    ['posts.index ', 'it contains whitespace'],
    ['a..b', 'it has an empty segment'],
    ['.x', 'it has an empty segment'],
    ['posts.', 'it has an empty segment'],
    ['posts', 'it names no action'],
    ['posts.index.extra', 'it has more than one dot'],
    ['posts.ind$x', 'it contains the character "$"'],
    ['posts/index', 'it contains the character "/"'],
    ['!posts.index', 'it contains the character "!"'],
    ['postés.index', 'it contains the character "é"'],
    ['*.index', 'a wildcard slug is only allowed as the bare "*"'],
    ['**', 'it names no action'],
    ['posts.in*', 'a wildcard must be a whole segment'],
    ['po*.index', 'a wildcard must be a whole segment'],
    ['-posts.index', 'a slug or action must start with a letter or a digit'],
    ['posts._index', 'a slug or action must start with a letter or a digit'],
  ])('rejects %j: %s', (permission, reason) => {
    expect(isValidPermission(permission)).toBe(false);
    expect(() => parsePermission(permission)).toThrow(InvalidPermissionError);
    expect(() => parsePermission(permission)).toThrow(`Invalid permission ${JSON.stringify(permission)}: ${reason}`);
  });

  it.each([
    [null, 'null'],
    [42, 'number'],
    [undefined, 'undefined'],
  ])('rejects the non-string %s', (value, type) => {
    expect(isValidPermission(value)).toBe(false);
    expect(() => parsePermission(value as unknown as string)).toThrow(`expected a string, got ${type}`);
  });

  it('reports the permission, the reason and a validation status on the error', () => {
    const error = errorThrownBy(() => parsePermission('a..b'));
    expect(error).toBeInstanceOf(InvalidPermissionError);
    expect(error).toMatchObject({ status: 422, permission: 'a..b', reason: 'it has an empty segment', name: 'InvalidPermissionError' });
  });

  it('treats names as case-sensitive', () => {
    expect(parsePermission('Posts.ForceDelete')).toEqual({ slug: 'Posts', action: 'ForceDelete' });
  });
});
