import { describe, expect, it } from 'vitest';
import {
  compileAbility,
  ForbiddenError,
  MissingResourceSlugError,
  ResourcePolicy,
  type PolicyMethod,
  type PolicyUser,
} from '@gatehouse/engine';
import { ACME, contextWith, EDITOR, errorThrownBy } from './support.js';

interface Post {
  id: number;
  author_id: number;
}

class PostPolicy extends ResourcePolicy<Post> {
  static override model = 'Post';

  // Adds ownership on top of the parent's permission check.
  override update(user: PolicyUser | null, post: Post): boolean {
    return super.update(user, post) && post.author_id === user?.id;
  }
}

const OWN_POST: Post = { id: 1, author_id: EDITOR.id };
const OTHER_POST: Post = { id: 2, author_id: 99 };

// The contract's table, written out again so a change to the engine's own table shows here.
const METHOD_ACTIONS: [PolicyMethod, string][] = [
  ['viewAny', 'index'],
  ['view', 'show'],
  ['create', 'store'],
  ['update', 'update'],
  ['delete', 'destroy'],
  ['viewTrashed', 'trashed'],
  ['restore', 'restore'],
  ['forceDelete', 'forceDelete'],
];

describe('ResourcePolicy actions', () => {
  it.each(METHOD_ACTIONS)('%s needs exactly posts.%s', (method, action) => {
    const allowed = new PostPolicy(contextWith([`posts.${action}`]));
    const refused = new PostPolicy(contextWith(METHOD_ACTIONS.filter(([, other]) => other !== action).map(([, other]) => `posts.${other}`)));
    expect(allowed[method](EDITOR, OWN_POST)).toBe(true);
    expect(refused[method](EDITOR, OWN_POST)).toBe(false);
    expect(allowed.can(action, EDITOR, OWN_POST)).toBe(true);
    expect(refused.can(action, EDITOR, OWN_POST)).toBe(false);
    expect(() => allowed.authorize(method, EDITOR, OWN_POST)).not.toThrow();
    expect(() => refused.authorize(method, EDITOR, OWN_POST)).toThrow(ForbiddenError);
  });

  it('answers every action for posts.* and for *, and none for another resource', () => {
    for (const permissions of [['posts.*'], ['*']]) {
      const policy = new PostPolicy(contextWith(permissions));
      expect([policy.viewAny(EDITOR), policy.view(EDITOR, OWN_POST), policy.create(EDITOR), policy.forceDelete(EDITOR, OWN_POST)]).toEqual([
        true,
        true,
        true,
        true,
      ]);
    }
    const elsewhere = new PostPolicy(contextWith(['comments.*']));
    expect([elsewhere.viewAny(EDITOR), elsewhere.create(EDITOR)]).toEqual([false, false]);
  });

  it('keeps the permission check in an override that calls the parent', () => {
    const withPermission = new PostPolicy(contextWith(['posts.update']));
    const withoutPermission = new PostPolicy(contextWith(['posts.index']));
    expect(withPermission.update(EDITOR, OWN_POST)).toBe(true);
    expect(withPermission.update(EDITOR, OTHER_POST)).toBe(false);
    expect(withoutPermission.update(EDITOR, OWN_POST)).toBe(false);
    expect(withoutPermission.can('update', EDITOR, OWN_POST)).toBe(false);
  });

  it('runs overrides from can() and authorize()', () => {
    const policy = new PostPolicy(contextWith(['posts.update']));
    expect(policy.can('update', EDITOR, OTHER_POST)).toBe(false);
    expect(() => policy.authorize('update', EDITOR, OTHER_POST)).toThrow('This action is unauthorized.');
  });

  it('checks a custom action as {slug}.{action}', () => {
    expect(new PostPolicy(contextWith(['posts.publish'])).can('publish', EDITOR)).toBe(true);
    expect(new PostPolicy(contextWith(['posts.index'])).can('publish', EDITOR)).toBe(false);
    expect(new PostPolicy(contextWith(['*', '!posts.publish'])).can('publish', EDITOR)).toBe(false);
  });

  it('throws a 403 ForbiddenError with the contract message', () => {
    const error = errorThrownBy(() => new PostPolicy(contextWith([])).authorize('viewAny', null));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, message: 'This action is unauthorized.' });
  });
});

describe('ResourcePolicy resource slug', () => {
  const context = contextWith([]);

  it.each([
    ['Post', 'posts'],
    ['Category', 'categories'],
    ['BlogPost', 'blog_posts'],
    ['Address', 'addresses'],
    ['Box', 'boxes'],
    ['Key', 'keys'],
  ])('derives it from model %s as %s', (model, slug) => {
    class Policy extends ResourcePolicy {
      static override model = model;
    }
    expect(new Policy(context).resourceSlug).toBe(slug);
  });

  it('prefers an explicit static resourceSlug over the model', () => {
    class PersonPolicy extends ResourcePolicy {
      static override model = 'Person';
      static override resourceSlug = 'people';
    }
    expect(new PersonPolicy(contextWith(['people.index'])).viewAny(EDITOR)).toBe(true);
    expect(new PersonPolicy(contextWith(['persons.index'])).viewAny(EDITOR)).toBe(false);
  });

  it('can be overridden on the instance', () => {
    class ArchivePolicy extends ResourcePolicy {
      override get resourceSlug(): string {
        return this.routeGroup === 'admin' ? 'archives' : 'public_archives';
      }
    }
    expect(new ArchivePolicy(contextWith(['archives.index'], { routeGroup: 'admin' })).viewAny(EDITOR)).toBe(true);
    expect(new ArchivePolicy(contextWith(['archives.index'])).viewAny(EDITOR)).toBe(false);
  });

  it('refuses to guess when nothing names the resource', () => {
    expect(() => new ResourcePolicy(context).viewAny(EDITOR)).toThrow(MissingResourceSlugError);
    expect(() => new ResourcePolicy(context).resourceSlug).toThrow('ResourcePolicy names no resource');
  });
});

describe('ResourcePolicy helpers', () => {
  it('hasRole tests the caller’s role in the current organization', () => {
    const policy = new PostPolicy(contextWith([], { role: 'editor' }));
    expect(policy.hasRole(EDITOR, 'editor')).toBe(true);
    expect(policy.hasRole(EDITOR, 'owner')).toBe(false);
    expect(policy.hasRole(null, 'editor')).toBe(false);
    expect(policy.hasRole({ id: 99 }, 'editor')).toBe(false);
    expect(new PostPolicy(contextWith([], { role: null })).hasRole(EDITOR, 'editor')).toBe(false);
  });

  it('hasPermission checks the current organization by default, by object, id or slug', () => {
    const policy = new PostPolicy(contextWith(['posts.index']));
    for (const organization of [undefined, ACME, ACME.id, ACME.slug]) {
      expect(policy.hasPermission('posts.index', organization)).toBe(true);
      expect(policy.hasPermission('posts.store', organization)).toBe(false);
    }
  });

  it('hasPermission checks another organization through permissionsFor', () => {
    const globex = compileAbility(['posts.*']);
    const policy = new PostPolicy(
      contextWith(['posts.index'], {
        permissionsFor: (organization) => {
          const isGlobex = typeof organization === 'object' ? organization.id === 2 : organization === 'globex' || organization === 2;
          return isGlobex ? globex : undefined;
        },
      }),
    );
    expect(policy.hasPermission('posts.store', 'globex')).toBe(true);
    expect(policy.hasPermission('posts.store', 2)).toBe(true);
    expect(policy.hasPermission('posts.*', { id: 2, slug: 'globex' })).toBe(true);
    expect(policy.hasPermission('posts.index', 'initech')).toBe(false);
    expect(new PostPolicy(contextWith(['*'])).hasPermission('posts.index', 'globex')).toBe(false);
    expect(new PostPolicy(contextWith(['*'], { organization: null })).hasPermission('posts.index', ACME)).toBe(false);
  });

  it('hasPermission answers wildcard questions for the whole pattern', () => {
    const policy = new PostPolicy(contextWith(['posts.*', '!posts.forceDelete']));
    expect(policy.hasPermission('posts.*')).toBe(false);
    expect(policy.hasPermission('posts.publish')).toBe(true);
  });

  it('lets a policy branch on the route group', () => {
    class ReportPolicy extends ResourcePolicy {
      static override resourceSlug = 'reports';
      override viewAny(user: PolicyUser | null): boolean {
        return super.viewAny(user) && (this.routeGroup === 'admin' || this.hasRole(user, 'owner'));
      }
    }
    expect(new ReportPolicy(contextWith(['reports.index'], { routeGroup: 'admin' })).viewAny(EDITOR)).toBe(true);
    expect(new ReportPolicy(contextWith(['reports.index'], { routeGroup: 'tenant' })).viewAny(EDITOR)).toBe(false);
    expect(new ReportPolicy(contextWith(['reports.index'], { role: 'owner' })).viewAny(EDITOR)).toBe(true);
  });
});

describe('ResourcePolicy attribute defaults', () => {
  it('allows every field to be read and written and hides none', () => {
    const policy = new PostPolicy(contextWith([]));
    expect(policy.permittedAttributesForShow(EDITOR)).toBeNull();
    expect(policy.hiddenAttributesForShow(EDITOR)).toBeNull();
    expect(policy.permittedAttributesForCreate(EDITOR)).toBeNull();
    expect(policy.permittedAttributesForUpdate(EDITOR)).toBeNull();
  });

  it('uses the create list for updates unless update has its own', () => {
    class DraftPolicy extends ResourcePolicy {
      static override model = 'Draft';
      override permittedAttributesForCreate(user: PolicyUser | null): string[] | null {
        return user === null ? [] : ['title', 'body'];
      }
    }
    class LockedDraftPolicy extends DraftPolicy {
      override permittedAttributesForUpdate(_user: PolicyUser | null): string[] | null {
        return ['body'];
      }
    }
    expect(new DraftPolicy(contextWith([])).permittedAttributesForUpdate(EDITOR)).toEqual(['title', 'body']);
    expect(new DraftPolicy(contextWith([])).permittedAttributesForUpdate(null)).toEqual([]);
    expect(new LockedDraftPolicy(contextWith([])).permittedAttributesForUpdate(EDITOR)).toEqual(['body']);
  });
});
