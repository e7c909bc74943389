import { describe, expect, it } from 'vitest';
import { resolvePolicy, ResourcePolicy, slugForModel, type PolicyUser } from '@gatehouse/engine';
import { contextWith, EDITOR } from './support.js';

class PostPolicy extends ResourcePolicy {
  static override model = 'Post';
}
class CategoryPolicy extends ResourcePolicy {}
class CommentPolicy extends ResourcePolicy {
  override create(user: PolicyUser | null): boolean {
    return super.create(user) && user !== null;
  }
}
class BlogPostPolicy extends ResourcePolicy {}
class PersonPolicy extends ResourcePolicy {
  static override resourceSlug = 'people';
}
class ArticlePolicy extends ResourcePolicy {
  static override model = 'Story';
}

const POLICIES = { PostPolicy, CategoryPolicy, CommentPolicy, BlogPostPolicy, PersonPolicy, ArticlePolicy, helper: ResourcePolicy };

describe('resolvePolicy', () => {
  it.each([
    ['posts', PostPolicy],
    ['categories', CategoryPolicy],
    ['comments', CommentPolicy],
    ['blog_posts', BlogPostPolicy],
  ])('finds the policy for %s by naming convention', (slug, expected) => {
    const Policy = resolvePolicy(slug, POLICIES);
    expect(new Policy(contextWith([])) instanceof expected).toBe(true);
    expect(new Policy(contextWith([])).resourceSlug).toBe(slug);
  });

  it('finds a policy that declares its slug by that slug only, and returns it unchanged', () => {
    expect(resolvePolicy('posts', POLICIES)).toBe(PostPolicy);
    expect(resolvePolicy('people', POLICIES)).toBe(PersonPolicy);
    expect(resolvePolicy('persons', POLICIES)).not.toBe(PersonPolicy);
    expect(resolvePolicy('stories', POLICIES)).toBe(ArticlePolicy);
    expect(new (resolvePolicy('articles', POLICIES))(contextWith([]))).not.toBeInstanceOf(ArticlePolicy);
  });

  it('binds a found policy without a slug to the slug it was found for', () => {
    const Policy = resolvePolicy('comments', POLICIES);
    expect(new Policy(contextWith(['comments.store'])).create(EDITOR)).toBe(true);
    expect(new Policy(contextWith(['comments.store'])).create(null)).toBe(false);
    expect(new Policy(contextWith(['posts.store'])).create(EDITOR)).toBe(false);
  });

  it('falls back to ResourcePolicy bound to the slug', () => {
    const Policy = resolvePolicy('tags', POLICIES);
    const policy = new Policy(contextWith(['tags.index']));
    expect(policy).toBeInstanceOf(ResourcePolicy);
    expect(policy.resourceSlug).toBe('tags');
    expect(policy.viewAny(EDITOR)).toBe(true);
    expect(policy.create(EDITOR)).toBe(false);
    expect(resolvePolicy('helpers', POLICIES)).not.toBe(ResourcePolicy);
  });

  it('returns the same class for the same slug every time', () => {
    expect(resolvePolicy('tags', POLICIES)).toBe(resolvePolicy('tags', {}));
    expect(resolvePolicy('comments', POLICIES)).toBe(resolvePolicy('comments', POLICIES));
    expect(resolvePolicy('tags', POLICIES)).not.toBe(resolvePolicy('labels', POLICIES));
  });
});

describe('slugForModel', () => {
  it.each([
    ['Post', 'posts'],
    ['Comment', 'comments'],
    ['Category', 'categories'],
    ['Day', 'days'],
    ['Box', 'boxes'],
    ['Match', 'matches'],
    ['Status', 'statuses'],
    ['Case', 'cases'],
    ['BlogPost', 'blog_posts'],
    ['OrderItem2', 'order_item2s'],
  ])('%s → %s', (model, slug) => {
    expect(slugForModel(model)).toBe(slug);
  });
});
