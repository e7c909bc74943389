import { GatehouseError } from '@gatehouse/engine';

/**
 * A query string a listing or a record cannot be read with: an unknown filter, sort, field, scope,
 * page or cursor. Like the engine's errors it names the status it is answered with and a message
 * safe to show; the routing layer builds the answer (`server/http/http-error-for.ts`).
 */
export class InvalidQueryError extends GatehouseError {
  readonly status = 400;
}
