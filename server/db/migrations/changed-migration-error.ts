export class ChangedMigrationError extends Error {
  constructor(readonly migration: string) {
    super(`Migration ${migration} was changed after it was applied; add a new migration instead.`);
    this.name = 'ChangedMigrationError';
  }
}
