import { describe, expect, it } from 'vitest';
import { MAX_PERMISSION_LENGTH } from '@gatehouse/engine';
import { compiledPermissions, REMEMBERED_BYTES, rememberedSize } from '../../../server/permissions/compiled-permissions.js';

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

  it('stay within their stated size, however many distinct lists arrive (issue 28, finding 6)', () => {
    // Lists as long as a membership may hold, of names as long as the grammar allows.
    const list = (index: number, count: number) =>
      Array.from({ length: count }, (_, entry) => `p${index}x${entry}`.padEnd(MAX_PERMISSION_LENGTH - 2, 'a') + '.a');
    let largest = 0;
    for (let index = 0; index < 5000; index++) {
      const compiled = compiledPermissions({ role: ['posts.*'], granted: list(index, index % 50 === 0 ? 200 : 3), denied: [] });
      expect(compiled.ability.can('a', `p${index}x0`.padEnd(MAX_PERMISSION_LENGTH - 2, 'a'))).toBe(true);
      largest = Math.max(largest, rememberedSize());
    }
    expect(largest).toBeGreaterThan(REMEMBERED_BYTES / 2);
    expect(largest).toBeLessThanOrEqual(REMEMBERED_BYTES);
  });
});
