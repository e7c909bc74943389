import { DomainError } from './domain-error.js';

/**
 * A statement of the request ran past the request's deadline (`requestTimeoutMs`) and was
 * cancelled: its transaction rolled back, so nothing the request did was kept.
 */
export class RequestTimeoutError extends DomainError {
  constructor(readonly timeoutMs: number) {
    super(`The request took longer than its deadline of ${timeoutMs} ms and was stopped; nothing it changed was kept. Try again later, or ask for less.`);
  }
}
