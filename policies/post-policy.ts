import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';

const EDITORIAL = ['title', 'body', 'status'];

/**
 * DESIGN.md 6: viewers create no posts, even if granted `posts.store`. Internal notes are for the
 * people who may change posts (editors, `*` roles); viewers and guests never see them. `*` roles
 * set every field, anyone else the editorial ones only.
 */
export class PostPolicy extends ResourcePolicy {
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
