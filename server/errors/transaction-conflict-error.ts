import { DomainError } from './domain-error.js';

/**
 * The request's transaction lost a deadlock (or a serialization conflict) with a concurrent one
 * and PostgreSQL rolled it back: nothing it wrote was kept, and the same request may pass now.
 */
export class TransactionConflictError extends DomainError {
  constructor() {
    super('The request ran into another one changing the same records at the same time and was stopped; nothing it changed was kept. Try again.');
  }
}
