import { DomainError } from './domain-error.js';

/** Missing, tampered, expired, revoked or foreign-key token: the client drops its session. */
export class UnauthenticatedError extends DomainError {
  constructor() {
    super('Unauthenticated.', { gate: 'authentication' });
  }
}
