import { HttpError } from './http-error.js';

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = 'The request body encoding is not supported.') {
    super(415, message);
  }
}
