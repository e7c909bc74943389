import { HttpError } from './http-error.js';

export const NOT_MIGRATED = 'database not migrated: run `gatehouse migrate`';

/** The database answers but lacks the schema this version of the service needs. */
export class NotMigratedError extends HttpError {
  constructor() {
    super(503, NOT_MIGRATED, { 'Retry-After': '5' });
  }
}
