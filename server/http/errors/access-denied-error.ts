import { HttpError } from './http-error.js';

/** A 403 for the server's own rules; policy denials come from the engine's ForbiddenError. */
export class AccessDeniedError extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}
