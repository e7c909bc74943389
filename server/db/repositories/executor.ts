import type { Kysely } from 'kysely';
import type { Schema } from '../schema.js';

/** The pool or a transaction: repositories run on whichever the caller holds. */
export type Executor = Kysely<Schema>;
