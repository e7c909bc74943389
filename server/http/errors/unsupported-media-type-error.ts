import { HttpError } from './http-error.js';

export class UnsupportedMediaTypeError extends HttpError {
  constructor() {
    super(415, 'The request body encoding is not supported.');
  }
}
