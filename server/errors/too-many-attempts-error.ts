import { DomainError } from './domain-error.js';

export class TooManyAttemptsError extends DomainError {
  /** `what` names the attempts in the message: "login attempts", "password reset requests". */
  constructor(
    what: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many ${what}. Please try again in ${retryAfterSeconds} seconds.`);
  }
}
