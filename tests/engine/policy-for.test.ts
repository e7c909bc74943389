import { describe, expect, it } from 'vitest';
import { policyFor, ResourcePolicy } from '@gatehouse/engine';
import { PostPolicy } from '../../policies/post-policy.js';
import { UserPolicy } from '../../policies/user-policy.js';

describe('policyFor', () => {
  it('binds a policy that names no slug to the one its class name gives', () => {
    const viewer = policyFor(PostPolicy, { role: 'viewer', permissions: ['posts.index', 'posts.show'], granted: ['posts.store'] });
    expect(viewer.resourceSlug).toBe('posts');
    expect(viewer.can('index', viewer.context.user)).toBe(true);
    // PostPolicy.create refuses viewers even with posts.store granted.
    expect(viewer.hasPermission('posts.store')).toBe(true);
    expect(viewer.can('store', viewer.context.user)).toBe(false);
    expect(viewer.hiddenAttributesForShow(viewer.context.user)).toEqual(['internal_notes']);
  });

  it('layers denials over the role as a request does', () => {
    const editor = policyFor(PostPolicy, { role: 'editor', permissions: ['posts.*'], denied: ['posts.forceDelete'] });
    const post = { id: 1 };
    expect(editor.can('update', editor.context.user, post)).toBe(true);
    expect(editor.can('forceDelete', editor.context.user, post)).toBe(false);
  });

  it('takes the caller, the organization and the route group it is given', () => {
    const policy = policyFor(UserPolicy, { permissions: ['users.*'], user: { id: 7 }, routeGroup: 'admin' });
    expect(policy.context).toMatchObject({ role: null, organization: null, routeGroup: 'admin' });
    // Outside an organization users.* renames anyone; inside one, only oneself.
    expect(policy.can('update', { id: 7 }, { id: 8 })).toBe(true);
    const member = policyFor(UserPolicy, { role: 'owner', permissions: ['*'], user: { id: 7 } });
    expect(member.context.organization).toEqual({ id: 1, slug: 'test' });
    expect(member.can('update', { id: 7 }, { id: 7 })).toBe(true);
    expect(member.can('update', { id: 7 }, { id: 8 })).toBe(false);
    expect(policyFor(UserPolicy, { user: null }).can('index', null)).toBe(false);
  });

  it('binds an anonymous policy class to the slug it is given', () => {
    const policy = policyFor(class extends ResourcePolicy {}, { slug: 'projects', permissions: ['projects.index'] });
    expect(policy.can('index', policy.context.user)).toBe(true);
    expect(policy.can('store', policy.context.user)).toBe(false);
  });
});
