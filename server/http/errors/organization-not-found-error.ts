import { NotFoundError } from './not-found-error.js';

/** Also the answer for an organization the caller is not a member of, so slugs do not leak. */
export class OrganizationNotFoundError extends NotFoundError {
  constructor() {
    super('Organization not found', { gate: 'organization' });
  }
}
