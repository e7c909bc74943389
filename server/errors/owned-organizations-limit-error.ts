import { AccessDeniedError } from './access-denied-error.js';

/** A creation that would leave its user owning more organizations than one user may own. */
export class OwnedOrganizationsLimitError extends AccessDeniedError {
  constructor(readonly maxOwned: number) {
    super(`You already own ${maxOwned} organizations, the most one user may own (organizationCreation.maxOwned).`);
  }
}
