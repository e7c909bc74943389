import { DomainError } from './domain-error.js';

/**
 * A query string a listing or a record cannot be read with: an unknown filter, sort, field, scope,
 * page or cursor.
 */
export class InvalidQueryError extends DomainError {}
