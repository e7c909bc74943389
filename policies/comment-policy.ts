import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';

/** A comment's text may change; the post it hangs on may not, except for `*` roles. */
export class CommentPolicy extends ResourcePolicy {
  override permittedAttributesForCreate(user: PolicyUser | null): string[] | null {
    return user !== null && this.hasPermission('*') ? null : ['post_id', 'body'];
  }

  override permittedAttributesForUpdate(user: PolicyUser | null): string[] | null {
    return user !== null && this.hasPermission('*') ? null : ['body'];
  }
}
