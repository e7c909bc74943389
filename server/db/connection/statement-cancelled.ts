import { sqlStateOf } from './statement-failure.js';

// query_canceled: a statement_timeout, or a cancel request (the client of the request went away).
const QUERY_CANCELED = '57014';

/**
 * True when a statement failed because it was cancelled, not because it was wrong, or did not
 * run because one before it in its batch was.
 */
export const isStatementCancelled = (error: unknown): boolean => sqlStateOf(error) === QUERY_CANCELED;
