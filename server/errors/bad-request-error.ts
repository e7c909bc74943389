import { DomainError } from './domain-error.js';

export class BadRequestError extends DomainError {
  constructor(message: string) {
    super(message);
  }
}
