import { describe, expect, it } from 'vitest';
import { compiledPermissions } from '../../server/permissions/compiled-permissions.js';

// Abilities are kept by their permission sources (server/permissions/compiled-permissions.ts).

describe('compiled permissions', () => {
  it('are made once for the same lists and shared', () => {
    const first = compiledPermissions({ role: ['posts.*'], granted: ['comments.store'], denied: ['posts.forceDelete'] });
    const again = compiledPermissions({ role: ['posts.*'], granted: ['comments.store'], denied: ['posts.forceDelete'] });
    expect(again).toBe(first);
    expect(first.ability.can('forceDelete', 'posts')).toBe(false);
    expect(first.ability.can('update', 'posts')).toBe(true);
    expect(first.ability.can('store', 'comments')).toBe(true);
    expect(Object.isFrozen(first.permissions)).toBe(true);
  });

  it('follow a changed list at once, and never lend one caller’s ability to another', () => {
    const editor = compiledPermissions({ role: ['posts.*'], granted: [], denied: [] });
    const denied = compiledPermissions({ role: ['posts.*'], granted: [], denied: ['posts.update'] });
    const granted = compiledPermissions({ role: ['posts.index'], granted: ['posts.update'], denied: [] });
    expect(denied).not.toBe(editor);
    expect(denied.ability.can('update', 'posts')).toBe(false);
    expect(editor.ability.can('update', 'posts')).toBe(true);
    // The same permissions from other lists: a role's and a grant's are not the same key.
    expect(granted.ability.can('update', 'posts')).toBe(true);
    expect(granted.ability.can('destroy', 'posts')).toBe(false);
    expect(compiledPermissions({ role: ['posts.index', 'posts.update'] }).ability.can('destroy', 'posts')).toBe(false);
  });
});
