import { AccessDeniedError } from './access-denied-error.js';

/** A creation that would leave its user owning more organizations than one user may own. */
export class OwnedOrganizationsLimitError extends AccessDeniedError {
  constructor(maxOwned: number) {
    super(`You already own the most organizations one user may own: ${maxOwned} (organizationCreation.maxOwned).`);
  }
}
