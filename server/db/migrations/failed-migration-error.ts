/** A migration PostgreSQL refused; its transaction was rolled back, so nothing of it remains. */
export class FailedMigrationError extends Error {
  constructor(readonly migration: string, cause: unknown) {
    super(`Migration ${migration} failed and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'FailedMigrationError';
  }
}
