import { GatehouseError } from '@gatehouse/engine';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import { isSchemaMissing } from '../db/schema-missing.js';
import { DatabaseNotMigratedError } from '../errors/database-not-migrated-error.js';
import { HttpError } from './errors/http-error.js';
import { NotMigratedError } from './errors/not-migrated-error.js';
import { ServiceUnavailableError } from './errors/service-unavailable-error.js';

/**
 * The one place where what the layers below throw becomes an HTTP answer: a status, headers and a
 * `{message}` body. Null for a fault of the service itself.
 */
export function httpErrorFor(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  // Engine errors (403 policy denials, forbidden fields and includes, 400 bad includes) and the
  // listing's InvalidQueryError carry a status, a message meant for the caller and, for a
  // refusal, its reason.
  if (error instanceof GatehouseError) return new HttpError(error.status, error.message, {}, error.refusal);
  if (error instanceof DatabaseNotMigratedError) return new NotMigratedError();
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError();
  return isSchemaMissing(error) ? new NotMigratedError() : null;
}
