import { HttpError } from './http-error.js';

/** Missing, tampered, expired, revoked or foreign-key token: the client drops its session. */
export class UnauthenticatedError extends HttpError {
  constructor() {
    super(401, 'Unauthenticated.', { 'WWW-Authenticate': 'Bearer' }, { gate: 'authentication' });
  }
}
