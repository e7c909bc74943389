import { sql } from 'kysely';
import type { Executor } from './executor.js';

export interface ServiceResourceRow {
  resource: string;
  service: string;
  actions: string[];
}

/** Every resource registered at run time, by name. */
export function listServiceResourceRows(db: Executor): Promise<ServiceResourceRow[]> {
  return db.selectFrom('service_resources').select(['resource', 'service', 'actions']).orderBy('resource').execute();
}

/** Registers a resource, or replaces its service and actions; true when it was new. */
export async function upsertServiceResource(db: Executor, row: ServiceResourceRow): Promise<boolean> {
  const saved = await db
    .insertInto('service_resources')
    .values(row)
    .onConflict((conflict) => conflict.column('resource').doUpdateSet({ service: row.service, actions: row.actions, updated_at: sql`now()` }))
    // xmax is 0 for a row this statement inserted, set for one it updated.
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .executeTakeFirstOrThrow();
  return saved.inserted;
}

/** Removes a registered resource; false when there was none. */
export async function deleteServiceResource(db: Executor, resource: string): Promise<boolean> {
  const deleted = await db.deleteFrom('service_resources').where('resource', '=', resource).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
