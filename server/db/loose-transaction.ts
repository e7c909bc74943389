import type { Kysely } from 'kysely';
import type { LooseTransaction } from '../models/loose-schema.js';
import type { Schema } from './schema.js';

/** The tenant transaction seen through the registered models' string-keyed schema. */
export function loose(trx: Kysely<Schema>): LooseTransaction {
  return trx as unknown as LooseTransaction;
}
