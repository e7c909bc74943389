export const NOT_MIGRATED = 'database not migrated: run `gatehouse migrate`';

/**
 * The database answers but lacks a migration this version of the service needs. The routing
 * layer answers it 503; the CLI prints its message.
 */
export class DatabaseNotMigratedError extends Error {
  constructor() {
    super(NOT_MIGRATED);
    this.name = 'DatabaseNotMigratedError';
  }
}
