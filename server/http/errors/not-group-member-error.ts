import { HttpError } from './http-error.js';

/** Membership enforcement: the caller is signed in but has no membership in the route group. */
export class NotGroupMemberError extends HttpError {
  constructor() {
    super(403, 'You are not a member of this group', {}, { gate: 'route_group' });
  }
}
