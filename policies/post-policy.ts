import { ResourcePolicy, type PolicyUser, type RecordConditions } from '@gatehouse/engine';

const EDITORIAL = ['title', 'body', 'status'];

/**
 * DESIGN.md 6: viewers create no posts, even if granted `posts.store`. Internal notes are for the
 * people who may change posts (editors, `*` roles); viewers and guests never see them. `*` roles
 * set every field, anyone else the editorial ones only.
 */
export class PostPolicy extends ResourcePolicy {
  /** Record rules that roles name as `posts.update:own`: data, so the list, the check, the browser and explain agree. */
  static override conditions = {
    own: { author_id: { context: 'user.id' } },
    published: { status: 'published' },
    visible: { or: [{ status: 'published' }, { author_id: { context: 'user.id' } }] },
  } satisfies RecordConditions;

  override create(user: PolicyUser | null): boolean {
    return super.create(user) && !this.hasRole(user, 'viewer');
  }

  override hiddenAttributesForShow(user: PolicyUser | null): string[] | null {
    return user !== null && this.hasPermission('posts.update') ? null : ['internal_notes'];
  }

  override permittedAttributesForCreate(user: PolicyUser | null): string[] | null {
    return user !== null && this.hasPermission('*') ? null : EDITORIAL;
  }
}
