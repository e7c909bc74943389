import { DomainError } from './domain-error.js';
import type { Refusal } from './refusal.js';

export class NotFoundError extends DomainError {
  constructor(message: string, refusal?: Refusal) {
    super(message, refusal);
  }
}
