import { describe, expect, it } from 'vitest';
import {
  compileAbility,
  explainFields,
  explainIncludes,
  explainPermission,
  explainPolicy,
  ForbiddenError,
  ForbiddenFieldsError,
  ForbiddenIncludeError,
  resolvePolicy,
  assertWritableAttributes,
  authorizeIncludes,
  type PolicyContext,
} from '@gatehouse/engine';
import { demoPolicies } from '../../policies/demo-policies.js';
import { contextWith, EDITOR, errorThrownBy } from './support.js';

// DESIGN.md 6: the demo roles, as the server layers them.
const EDITOR_SOURCES = { role: ['posts.*', 'comments.*', 'users.index'], denied: ['posts.forceDelete'] };
const VIEWER_SOURCES = { role: ['posts.index', 'posts.show', 'comments.index'], granted: ['comments.store'] };

const policyFor = (slug: string, context: PolicyContext) => new (resolvePolicy(slug, demoPolicies))(context);
const viewerWith = (permissions: string[]) => contextWith(permissions, { role: 'viewer' });

describe('explainPermission', () => {
  it('names the role wildcard that grants and the per-user deny that takes it away', () => {
    expect(explainPermission(EDITOR_SOURCES, 'posts.forceDelete')).toEqual({
      permission: 'posts.forceDelete',
      allowed: false,
      superadmin: false,
      granted_by: [{ source: 'role', entry: 'posts.*' }],
      denied_by: [{ source: 'denied', entry: 'posts.forceDelete' }],
    });
    expect(explainPermission(EDITOR_SOURCES, 'posts.destroy')).toMatchObject({ allowed: true, denied_by: [] });
  });

  it('lists every entry that matched, from every source, not only the first', () => {
    const explained = explainPermission({ role: ['*', 'posts.*'], granted: ['posts.store', 'posts.index'] }, 'posts.store');
    expect(explained).toMatchObject({ allowed: true, superadmin: true });
    expect(explained.granted_by).toEqual([
      { source: 'role', entry: '*' },
      { source: 'role', entry: 'posts.*' },
      { source: 'granted', entry: 'posts.store' },
    ]);
  });

  it('names a per-user grant, and nothing for a permission no source holds', () => {
    expect(explainPermission(VIEWER_SOURCES, 'comments.store').granted_by).toEqual([{ source: 'granted', entry: 'comments.store' }]);
    expect(explainPermission(VIEWER_SOURCES, 'posts.destroy')).toEqual({
      permission: 'posts.destroy',
      allowed: false,
      superadmin: false,
      granted_by: [],
      denied_by: [],
    });
  });

  it("names the user's own list of a non-tenant group as the source", () => {
    expect(explainPermission({ user: ['*'] }, 'organizations.destroy')).toMatchObject({ allowed: true, superadmin: true, granted_by: [{ source: 'user', entry: '*' }] });
  });

  it('refuses a wildcard question a deny carves into, naming the deny', () => {
    expect(explainPermission(EDITOR_SOURCES, 'posts.*')).toMatchObject({ allowed: false, denied_by: [{ source: 'denied', entry: 'posts.forceDelete' }] });
    expect(explainPermission({ role: ['*'], denied: ['*'] }, 'posts.show')).toMatchObject({ allowed: false, superadmin: false });
  });
});

describe('explainPolicy', () => {
  it("names PostPolicy.create when the override refuses a viewer who holds posts.store", () => {
    const policy = policyFor('posts', viewerWith(['posts.index', 'posts.store']));
    expect(explainPolicy(policy, 'create', EDITOR)).toEqual({ allowed: false, permission: 'posts.store', permission_held: true, refused_by: 'PostPolicy.create' });
    expect(errorThrownBy(() => policy.authorize('create', EDITOR))).toMatchObject({
      constructor: ForbiddenError,
      message: 'This action is unauthorized.',
      refusal: { gate: 'policy', permission: 'posts.store', policy: 'PostPolicy.create' },
    });
  });

  it('names no method when the permission itself is missing', () => {
    const policy = policyFor('posts', viewerWith(['posts.index']));
    expect(policy.explain('delete', EDITOR, { id: 1 })).toEqual({ allowed: false, permission: 'posts.destroy', permission_held: false, refused_by: null });
    expect(errorThrownBy(() => policy.authorize('delete', EDITOR, { id: 1 }))).toMatchObject({ refusal: { gate: 'policy', permission: 'posts.destroy' } });
    expect((errorThrownBy(() => policy.authorize('delete', EDITOR, { id: 1 })) as ForbiddenError).refusal).not.toHaveProperty('policy');
  });

  it('names a record rule that refuses on top of the permission', () => {
    const policy = policyFor('users', contextWith(['users.update']));
    expect(policy.explain('update', EDITOR, { id: EDITOR.id })).toMatchObject({ allowed: true, refused_by: null });
    expect(policy.explain('update', EDITOR, { id: 99 })).toMatchObject({ allowed: false, permission_held: true, refused_by: 'UserPolicy.update' });
  });
});

describe('explainFields', () => {
  const editor = policyFor('posts', contextWith(['posts.*']));

  it('names the refused fields and the policy method whose list refused them', () => {
    expect(explainFields(editor, EDITOR, ['title', 'internal_notes', 'author_id'], 'create')).toEqual({
      allowed: false,
      fields: ['internal_notes', 'author_id'],
      permitted: ['title', 'body', 'status'],
      policy: 'PostPolicy.permittedAttributesForCreate',
    });
    expect(errorThrownBy(() => assertWritableAttributes(editor, EDITOR, { internal_notes: 'x' }, 'create'))).toMatchObject({
      constructor: ForbiddenFieldsError,
      refusal: { gate: 'fields', fields: ['internal_notes'], policy: 'PostPolicy.permittedAttributesForCreate' },
    });
  });

  it('names the create list for an update the policy gives no list of its own, else the update list', () => {
    expect(explainFields(editor, EDITOR, ['internal_notes'], 'update').policy).toBe('PostPolicy.permittedAttributesForCreate');
    const comments = policyFor('comments', contextWith(['comments.*']));
    expect(explainFields(comments, EDITOR, ['post_id'], 'update')).toMatchObject({ fields: ['post_id'], policy: 'CommentPolicy.permittedAttributesForUpdate' });
  });

  it('refuses a field the application lets nobody write without blaming the policy', () => {
    const owner = policyFor('posts', contextWith(['*']));
    expect(explainFields(owner, EDITOR, ['title', 'bogus'], 'create', ['title'])).toEqual({ allowed: false, fields: ['bogus'], permitted: null, policy: null });
    expect(explainFields(owner, EDITOR, ['title'], 'create', ['title']).allowed).toBe(true);
  });
});

describe('explainIncludes', () => {
  const RELATIONS: Record<string, Record<string, string>> = { posts: { author: 'users', comments: 'comments' }, comments: { author: 'users' } };
  const request = (permissions: string[], includes: string[]) => ({
    ability: compileAbility(permissions),
    rootSlug: 'posts',
    includes,
    relationSlug: (owner: string, relation: string) => RELATIONS[owner]?.[relation],
  });

  it('names the first hop without {slug}.index and the permission it needs', () => {
    expect(explainIncludes(request(['posts.index', 'comments.index'], ['comments', 'comments.author']))).toEqual({
      allowed: false,
      include: 'comments.author',
      permission: 'users.index',
    });
    expect(errorThrownBy(() => authorizeIncludes(request(['posts.index'], ['comments'])))).toMatchObject({
      constructor: ForbiddenIncludeError,
      refusal: { gate: 'include', include: 'comments', permission: 'comments.index' },
    });
  });

  it('allows paths whose every hop is indexable', () => {
    expect(explainIncludes(request(['posts.index', 'comments.index', 'users.index'], ['comments.author', 'author']))).toEqual({ allowed: true, include: null, permission: null });
  });
});
