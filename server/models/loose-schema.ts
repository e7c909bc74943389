import type { Kysely, SelectQueryBuilder } from 'kysely';

/**
 * Registered models name their tables and columns at runtime, so their queries go through a
 * schema keyed by string. Every name used with it comes from a checked registration.
 */
export type LooseSchema = Record<string, Record<string, unknown>>;
export type LooseRow = Record<string, unknown>;
export type LooseTransaction = Kysely<LooseSchema>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type LooseSelect = SelectQueryBuilder<LooseSchema, string, {}>;
