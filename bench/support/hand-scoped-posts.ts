import { postOptions } from '../../policies/models/posts.js';
import { PostPolicy } from '../../policies/post-policy.js';
import { defineModel } from '../../server/models/define-model.js';

/**
 * The demo's posts again, as `hand_scoped_posts` over the same table, with the contributor's
 * `visible` condition written by hand as the model's record scope: what a conditioned index of
 * `posts` is measured against (`npm run bench -- record-rules`). A role holding
 * `hand_scoped_posts.index` lists the same rows as one holding `posts.index:visible`.
 */
export const handScopedPosts = defineModel({
  ...postOptions,
  slug: 'hand_scoped_posts',
  table: 'posts',
  recordScope: (query, { userId }) => query.where((where) => where.or([where('status', '=', 'published'), where('author_id', '=', userId)])),
});

/** The posts' policy (the same hidden attributes), serving the hand-scoped model. */
export class HandScopedPostPolicy extends PostPolicy {
  static override resourceSlug = handScopedPosts.slug;
}
