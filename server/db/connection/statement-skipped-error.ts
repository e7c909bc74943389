/**
 * A statement that never ran: one before it in the same batch failed, and PostgreSQL skips
 * everything up to the batch's Sync. Its transaction is aborted as it would be after any failure.
 */
export class StatementSkippedError extends Error {
  constructor(failure: Error) {
    super(`Not run: a statement sent before it in the same batch failed (${failure.message})`, { cause: failure });
    this.name = 'StatementSkippedError';
  }
}
