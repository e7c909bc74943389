import { BadRequestError } from './bad-request-error.js';

/** Every endpoint's body is a set of named fields: an array, a scalar or null has none. */
export class BodyNotObjectError extends BadRequestError {
  constructor() {
    super('The request body must be a JSON object.');
  }
}
