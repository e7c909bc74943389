import { DomainError } from './domain-error.js';

export class PayloadTooLargeError extends DomainError {
  constructor() {
    super('The request body is too large.');
  }
}
