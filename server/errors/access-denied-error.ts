import { DomainError } from './domain-error.js';

/** A refusal by the server's own administration rules; policy denials come from the engine's ForbiddenError. */
export class AccessDeniedError extends DomainError {
  constructor(message: string, permission?: string) {
    super(message, { gate: 'administration', ...(permission === undefined ? {} : { permission }) });
  }
}
