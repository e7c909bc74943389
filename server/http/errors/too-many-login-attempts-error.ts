import { HttpError } from './http-error.js';

export class TooManyLoginAttemptsError extends HttpError {
  constructor(retryAfterSeconds: number) {
    super(429, `Too many login attempts. Please try again in ${retryAfterSeconds} seconds.`, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
