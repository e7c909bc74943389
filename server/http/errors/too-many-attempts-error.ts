import { HttpError } from './http-error.js';

export class TooManyAttemptsError extends HttpError {
  /** `what` names the attempts in the message: "login attempts", "password reset requests". */
  constructor(what: string, retryAfterSeconds: number) {
    super(429, `Too many ${what}. Please try again in ${retryAfterSeconds} seconds.`, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
