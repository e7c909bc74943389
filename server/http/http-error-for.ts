import { GatehouseError } from '@gatehouse/engine';
import { isDatabaseUnavailable } from '../db/connection/database-unavailable.js';
import { isTransactionConflict } from '../db/connection/transaction-conflict.js';
import { isSchemaMissing } from '../db/migrations/schema-missing.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import { BadRequestError } from '../errors/bad-request-error.js';
import { CallerLeftError } from '../errors/caller-left-error.js';
import { DatabaseNotMigratedError } from '../errors/database-not-migrated-error.js';
import { DomainError } from '../errors/domain-error.js';
import { FairShareExceededError } from '../errors/fair-share-exceeded-error.js';
import { IncludeTooLargeError } from '../errors/include-too-large-error.js';
import { InvalidCredentialsError } from '../errors/invalid-credentials-error.js';
import { InvalidQueryError } from '../errors/invalid-query-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { RequestTimeoutError } from '../errors/request-timeout-error.js';
import { SessionOfAnotherGroupError } from '../errors/session-of-another-group-error.js';
import { TooManyAttemptsError } from '../errors/too-many-attempts-error.js';
import { TransactionConflictError } from '../errors/transaction-conflict-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnreadableQueryFieldsError } from '../errors/unreadable-query-fields-error.js';
import { UnsupportedMediaTypeError } from '../errors/unsupported-media-type-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { HttpError } from './http-error.js';

type ErrorClass = abstract new (...args: never[]) => DomainError;

/** Each kind of domain error and its status; a subclass is answered like the nearest listed class. */
const STATUSES = new Map<ErrorClass, number>([
  [BadRequestError, 400],
  [InvalidQueryError, 400],
  [InvalidCredentialsError, 401],
  [UnauthenticatedError, 401],
  [AccessDeniedError, 403],
  [NotGroupMemberError, 403],
  [SessionOfAnotherGroupError, 403],
  [UnreadableQueryFieldsError, 403],
  [NotFoundError, 404],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [ValidationError, 422],
  [IncludeTooLargeError, 422],
  [TooManyAttemptsError, 429],
  [FairShareExceededError, 429],
  [DatabaseNotMigratedError, 503],
  [RequestTimeoutError, 503],
  [CallerLeftError, 503],
  [TransactionConflictError, 503],
]);

// A 503 is temporary: a client or load balancer may try again shortly.
const TRY_AGAIN_SHORTLY = { 'Retry-After': '5' };
const UNREACHABLE = 'Service unavailable: the database cannot be reached.';

function statusOf(error: DomainError): number | undefined {
  for (let kind = error.constructor; kind !== DomainError; kind = Object.getPrototypeOf(kind) as typeof kind) {
    const status = STATUSES.get(kind as ErrorClass);
    if (status !== undefined) return status;
  }
  return undefined;
}

function headersOf(error: DomainError, status: number): Record<string, string> {
  if (error instanceof UnauthenticatedError) return { 'WWW-Authenticate': 'Bearer' };
  if (error instanceof TooManyAttemptsError || error instanceof FairShareExceededError) return { 'Retry-After': String(error.retryAfterSeconds) };
  return status === 503 ? TRY_AGAIN_SHORTLY : {};
}

function answerOf(error: DomainError): HttpError | null {
  const status = statusOf(error);
  if (status === undefined) return null;
  return new HttpError(status, error.message, headersOf(error, status), error.refusal, error.details());
}

/**
 * The one place where what the layers below throw becomes an HTTP answer: a status, headers and a
 * `{message}` body with whatever else the error carries. Null for a fault of the service itself.
 */
export function httpErrorFor(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return answerOf(error);
  // Engine errors (403 policy denials, forbidden fields and includes, 400 bad includes) carry a
  // status, a message meant for the caller and, for a refusal, its reason.
  if (error instanceof GatehouseError) return new HttpError(error.status, error.message, {}, error.refusal);
  if (isDatabaseUnavailable(error)) return new HttpError(503, UNREACHABLE, TRY_AGAIN_SHORTLY);
  // Two requests writing the same rows in opposite orders: a matter of timing, not of either request.
  if (isTransactionConflict(error)) return answerOf(new TransactionConflictError());
  return isSchemaMissing(error) ? answerOf(new DatabaseNotMigratedError()) : null;
}
