import { DomainError } from './domain-error.js';

/** The client went away before its answer, and the statement running for it was cancelled: nobody reads this. */
export class CallerLeftError extends DomainError {
  constructor() {
    super('The client closed the connection before the answer; its request was stopped.');
  }
}
