/**
 * Why a call to Gatehouse gave no answer to use:
 * - `unavailable`: it could not be reached, closed the connection before the whole answer arrived,
 *   or answered 429 or 5xx, a redirect (never followed), or not the answer asked for (not JSON, the
 *   wrong shape, past 10 MiB), or refused the key list (401, 403, 404); or the client was closed
 *   before it answered;
 * - `timeout`: it took longer than the client's `timeout.connectMs` (waiting for a connection,
 *   queued ones included) or `timeout.responseMs`;
 * - `unauthenticated`: the token is not genuine, has expired or its session is gone (401), or it
 *   could not even be sent (characters no header carries);
 * - `forbidden`: the caller may not ask this (403);
 * - `invalid`: the request cannot be answered as asked, such as an organization that is not there
 *   for the caller (404) or a malformed check (422).
 */
export type GatehouseErrorKind = 'unavailable' | 'timeout' | 'unauthenticated' | 'forbidden' | 'invalid';

/** What Gatehouse answered instead of what was asked: its `kind`, and `status` when it answered over HTTP. */
export class GatehouseError extends Error {
  constructor(
    readonly kind: GatehouseErrorKind,
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The token is not genuine, has expired, or its session was revoked: answer 401. */
export class UnauthenticatedError extends GatehouseError {
  constructor(message = 'Unauthenticated.') {
    super('unauthenticated', message, 401);
  }
}

/** An option of `createGatehouse` that could never work, refused when the client is made rather than on every call. */
export class GatehouseOptionError extends TypeError {
  constructor(
    readonly option: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Whether a failed call found Gatehouse away (unreachable, slow or failing) rather than refusing. */
export const isUnavailable = (error: unknown): boolean => error instanceof GatehouseError && (error.kind === 'unavailable' || error.kind === 'timeout');

/** The kind of an HTTP answer that is not a success. */
export function kindOfStatus(status: number): GatehouseErrorKind {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 429 || status >= 500) return 'unavailable';
  return 'invalid';
}

/**
 * The status a service answers its own caller with when a call to Gatehouse failed: 401, 403,
 * Gatehouse's own status for `invalid` (404 when it gave none), and 503 for an unreachable or
 * slow Gatehouse, never a 500 and never an answer that lets the caller through.
 */
export function serviceStatus(error: GatehouseError): number {
  if (isUnavailable(error)) return 503;
  return error.status ?? 404;
}

/** A `scoped` plan given to `planToSql` without `scopeApplied`: its `WHERE` alone would let through records the model's `recordScope` hides. */
export class ScopedPlanError extends Error {
  constructor(readonly model: string) {
    super(`The plan of ${model} is scoped: Gatehouse narrows ${model} by its recordScope, which a plan cannot hold. Apply that scope in your query and pass { scopeApplied: true } to planToSql.`);
    this.name = new.target.name;
  }
}

/** A plan names a relation the table given to `planToSql` does not map: it cannot be applied, so nothing is filtered by guesswork. */
export class UnmappedRelationError extends Error {
  constructor(readonly relation: string) {
    super(`The plan tests the relation ${relation}: give its table in the relations of planToSql.`);
    this.name = new.target.name;
  }
}
