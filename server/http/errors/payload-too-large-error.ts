import { HttpError } from './http-error.js';

export class PayloadTooLargeError extends HttpError {
  constructor() {
    super(413, 'The request body is too large.');
  }
}
