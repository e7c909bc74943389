import { HttpError } from './http-error.js';

export class ServiceUnavailableError extends HttpError {
  constructor() {
    super(503, 'Service unavailable: the database cannot be reached.', { 'Retry-After': '5' });
  }
}
