import { DomainError } from './domain-error.js';

/** Wrong email or password on the login path; the same answer for both so emails stay private. */
export class InvalidCredentialsError extends DomainError {
  constructor() {
    super('Invalid credentials');
  }
}
