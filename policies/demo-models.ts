import { comments } from './models/comments.js';
import { organizations } from './models/organizations.js';
import { posts } from './models/posts.js';
import { roles } from './models/roles.js';
import { users } from './models/users.js';

/** The demo application's registrations (DESIGN.md 6). */
export const demoModels = [posts, comments, users, organizations, roles];
