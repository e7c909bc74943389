import { CommentPolicy } from './comment-policy.js';
import { OrganizationPolicy } from './organization-policy.js';
import { PostPolicy } from './post-policy.js';
import { RolePolicy } from './role-policy.js';
import { UserPolicy } from './user-policy.js';

/** One policy per demo model, found by name: `posts` → `PostPolicy`. */
export const demoPolicies = { PostPolicy, CommentPolicy, UserPolicy, OrganizationPolicy, RolePolicy };
