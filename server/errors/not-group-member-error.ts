import { DomainError } from './domain-error.js';

/** Membership enforcement: the caller is signed in but has no membership in the route group. */
export class NotGroupMemberError extends DomainError {
  constructor() {
    super('You are not a member of this group', { gate: 'route_group' });
  }
}
