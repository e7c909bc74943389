import { UnsupportedMediaTypeError } from './unsupported-media-type-error.js';

/** A body of a type the API does not read would reach its handlers as no body at all. */
export class BodyNotJsonError extends UnsupportedMediaTypeError {
  constructor() {
    super('Request bodies must be JSON, sent with Content-Type: application/json.');
  }
}
