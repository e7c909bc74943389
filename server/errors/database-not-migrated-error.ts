import { DomainError } from './domain-error.js';
import { gatehouseCommand } from './gatehouse-command.js';

/**
 * The database answers but lacks a migration this version of the service needs. The routing
 * layer answers it 503; the CLI prints its message.
 */
export class DatabaseNotMigratedError extends DomainError {
  constructor() {
    super(`database not migrated: run \`${gatehouseCommand('migrate')}\``);
  }
}
