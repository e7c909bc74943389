import { NotFoundError } from '../http/errors/not-found-error.js';

/**
 * A record outside the caller's record gate. Missing, another tenant's and hidden by a scope all
 * answer alike, so the answer never tells which.
 */
export class RecordNotFoundError extends NotFoundError {
  constructor() {
    super('Resource not found', { gate: 'record' });
  }
}

/** A slug the route group does not serve, registered elsewhere or not at all. */
export class UnknownModelError extends NotFoundError {
  constructor(slug: string) {
    super(`Unknown model: ${slug}.`);
  }
}
