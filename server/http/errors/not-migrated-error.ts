import { NOT_MIGRATED } from '../../errors/database-not-migrated-error.js';
import { HttpError } from './http-error.js';

/** The database answers but lacks the schema this version of the service needs. */
export class NotMigratedError extends HttpError {
  constructor() {
    super(503, NOT_MIGRATED, { 'Retry-After': '5' });
  }
}
