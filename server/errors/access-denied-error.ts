import { DomainError } from './domain-error.js';

/** A 403 for the server's own rules; policy denials come from the engine's ForbiddenError. */
export class AccessDeniedError extends DomainError {
  constructor(message: string) {
    super(message);
  }
}
