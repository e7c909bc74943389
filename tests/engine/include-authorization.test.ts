import { describe, expect, it } from 'vitest';
import {
  authorizeIncludes,
  compileAbility,
  effectivePermissions,
  ForbiddenIncludeError,
  InvalidIncludeError,
  parseIncludeParam,
  UnknownIncludeError,
} from '@gatehouse/engine';
import { errorThrownBy } from './support.js';

const RELATIONS: Record<string, Record<string, string>> = {
  posts: { author: 'users', comments: 'comments' },
  comments: { author: 'users', post: 'posts' },
  users: {},
};

function relationSlug(owner: string, relation: string): string | undefined {
  return RELATIONS[owner]?.[relation];
}

function authorize(permissions: string[], include: string): void {
  authorizeIncludes({ ability: compileAbility(permissions), rootSlug: 'posts', includes: parseIncludeParam(include), relationSlug });
}

describe('parseIncludeParam', () => {
  it('splits relations and keeps dotted paths, in request order', () => {
    expect(parseIncludeParam('comments.author,author')).toEqual(['comments.author', 'author']);
  });

  it('includes nothing for an empty value and each path once', () => {
    expect(parseIncludeParam('')).toEqual([]);
    expect(parseIncludeParam('author,author')).toEqual(['author']);
  });

  it.each([
    ['author,,comments', 'it has an empty relation name'],
    [',', 'it has an empty relation name'],
    ['comments.', 'it has an empty relation name'],
    ['.author', 'it has an empty relation name'],
    ['comments..author', 'it has an empty relation name'],
    ['author, comments', '" comments" is not a relation name'],
    ['author;drop', '"author;drop" is not a relation name'],
    ['1author', '"1author" is not a relation name'],
  ])('rejects %j with a 400', (include, reason) => {
    const error = errorThrownBy(() => parseIncludeParam(include));
    expect(error).toBeInstanceOf(InvalidIncludeError);
    expect(error).toMatchObject({ status: 400, message: `Invalid include ${JSON.stringify(include)}: ${reason}` });
  });
});

describe('authorizeIncludes', () => {
  it('allows includes whose every hop the caller may index', () => {
    expect(() => authorize(['users.index', 'comments.index', 'posts.index'], 'author,comments,comments.author,comments.post.author')).not.toThrow();
    expect(() => authorize(['*'], 'comments.post.comments.author')).not.toThrow();
    expect(() => authorize([], '')).not.toThrow();
  });

  it('needs the index permission, not another action', () => {
    const error = errorThrownBy(() => authorize(['users.show', 'users.update'], 'author'));
    expect(error).toBeInstanceOf(ForbiddenIncludeError);
    expect(error).toMatchObject({ status: 403, message: 'You do not have permission to include author.', path: 'author' });
  });

  it('refuses a nested include at the hop that is not permitted', () => {
    expect(errorThrownBy(() => authorize(['users.index', 'comments.index'], 'comments.post.author'))).toMatchObject({
      message: 'You do not have permission to include comments.post.',
    });
    expect(errorThrownBy(() => authorize(['comments.index'], 'comments.author'))).toMatchObject({
      message: 'You do not have permission to include comments.author.',
    });
    expect(errorThrownBy(() => authorize(['users.index'], 'comments.author'))).toMatchObject({
      message: 'You do not have permission to include comments.',
    });
  });

  it('names the first refused include in request order', () => {
    expect(errorThrownBy(() => authorize(['posts.*'], 'comments,author'))).toMatchObject({ path: 'comments' });
    expect(errorThrownBy(() => authorize(['posts.*'], 'author,comments'))).toMatchObject({ path: 'author' });
  });

  it('respects denies carved out of wildcards', () => {
    const permissions = effectivePermissions({ role: ['*'], denied: ['users.index'] });
    expect(() => authorize(permissions, 'comments')).not.toThrow();
    expect(errorThrownBy(() => authorize(permissions, 'comments.author'))).toMatchObject({ path: 'comments.author' });
  });

  it('reports a relation that does not exist as a 400 naming its path', () => {
    const error = errorThrownBy(() => authorize(['*'], 'comments.likes'));
    expect(error).toBeInstanceOf(UnknownIncludeError);
    expect(error).toMatchObject({ status: 400, message: 'Unknown include: comments.likes.', path: 'comments.likes' });
  });
});
