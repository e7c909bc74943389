import type { Refusal } from './refusal.js';
import { HttpError } from './http-error.js';

/** A 403 for the server's own administration rules; policy denials come from the engine's ForbiddenError. */
export class AccessDeniedError extends HttpError {
  constructor(message: string, permission?: string) {
    const refusal: Refusal = { gate: 'administration', ...(permission === undefined ? {} : { permission }) };
    super(403, message, {}, refusal);
  }
}
