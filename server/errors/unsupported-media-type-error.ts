import { DomainError } from './domain-error.js';

export class UnsupportedMediaTypeError extends DomainError {
  constructor(message = 'The request body encoding is not supported.') {
    super(message);
  }
}
