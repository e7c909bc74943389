import { sqlStateOf } from './statement-failure.js';

// deadlock_detected and serialization_failure: PostgreSQL rolled the transaction back so that a
// concurrent one could go on. Nothing was wrong with the request; run again, it may well pass.
const CONFLICTS = new Set(['40P01', '40001']);

/**
 * True when a statement failed because its transaction lost to a concurrent one, or did not run
 * because one before it in its batch did.
 */
export const isTransactionConflict = (error: unknown): boolean => CONFLICTS.has(sqlStateOf(error) ?? '');
