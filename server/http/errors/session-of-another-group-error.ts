import { HttpError } from './http-error.js';

/**
 * A live session shown to a route group it was not issued for. The caller is signed in, just not
 * here, so this is a 403: a client keeps its session on a 403 and ends it on a 401.
 */
export class SessionOfAnotherGroupError extends HttpError {
  constructor() {
    super(403, 'This session belongs to another route group.', {}, { gate: 'route_group' });
  }
}
