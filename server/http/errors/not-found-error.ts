import type { Refusal } from './refusal.js';
import { HttpError } from './http-error.js';

export class NotFoundError extends HttpError {
  constructor(message: string, refusal?: Refusal) {
    super(404, message, {}, refusal);
  }
}
