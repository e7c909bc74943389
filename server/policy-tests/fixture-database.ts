import type { AccessPlan } from '@gatehouse/engine';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../db/connection/database.js';
import { conditionSql } from '../listing/condition-sql.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseSchema, LooseTransaction } from '../models/loose-schema.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { Fixtures } from './fixture-records.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

/** The ids of a model's fixtures that a plan admits, as the server's SQL filter reads them. */
export type FixtureLister = (slug: string, plan: AccessPlan) => Promise<number[]>;

/** A database the fixtures can be written to and read back in SQL, nothing of them kept. */
export interface FixtureDatabase {
  /**
   * Runs `list` over `fixtures`, written into scratch copies of their models' tables (and of every
   * table their relations reach) inside a transaction that is rolled back. A fixture the database
   * refuses is `refused(slug, index, message)`'s error.
   */
  withFixtures<T>(registry: ModelRegistry, fixtures: Fixtures, models: readonly string[], list: (lister: FixtureLister) => Promise<T>, refused: (slug: string, index: number, message: string) => Error): Promise<T>;
  close(): Promise<void>;
}

/** A scratch table could not be made: the model's own table is missing (a database not migrated). */
export class ScratchTableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScratchTableError';
  }
}

/** What the statements call a model's rows. */
const ALIAS = 'fixture';

/** A model's scratch copy: a temporary table, so no real row, key, foreign key or row-level security is involved. */
const scratch = (model: ModelDefinition): ModelDefinition => ({ ...model, table: `pg_temp.fixtures_${model.slug.replaceAll('-', '_')}` });

/** Every model the given ones reach through their relations, themselves included. */
function reachable(registry: ModelRegistry, slugs: readonly string[]): ModelDefinition[] {
  const found = new Map<string, ModelDefinition>();
  const visit = (slug: string) => {
    if (found.has(slug)) return;
    const model = registry.get(slug);
    found.set(slug, model);
    for (const relation of Object.values(model.relations)) visit(relation.model);
  };
  slugs.forEach(visit);
  return [...found.values()];
}

const isUndefinedTable = (error: unknown) => error instanceof pg.DatabaseError && error.code === '42P01';

/**
 * Copies each model's table, columns and types only (collations and domains included, so values
 * compare as in the real table), then writes the fixtures into the copies row by row.
 */
async function writeFixtures(trx: LooseTransaction, registry: ModelRegistry, fixtures: Fixtures, models: readonly ModelDefinition[], refused: (slug: string, index: number, message: string) => Error) {
  for (const model of models) {
    try {
      await sql`create temporary table ${sql.table(scratch(model).table)} as select * from ${sql.table(model.table)} with no data`.execute(trx);
    } catch (error) {
      if (!isUndefinedTable(error)) throw error;
      throw new ScratchTableError(`the database has no table ${model.table} for model ${model.slug}: migrate it first (${gatehouseCommand('migrate')})`);
    }
  }
  for (const [slug, rows] of fixtures) {
    const table = scratch(registry.get(slug)).table;
    for (const [index, row] of rows.entries()) {
      try {
        await trx.insertInto(table).values(row).execute();
      } catch (error) {
        if (!(error instanceof pg.DatabaseError)) throw error;
        throw refused(slug, index, `the database refuses this row: ${error.message}`);
      }
    }
  }
}

/** The database at `connectionString` (its owner), one connection for the whole run. */
export function openFixtureDatabase(connectionString: string): FixtureDatabase {
  const database = openDatabase<LooseSchema>({ connectionString, maxConnections: 1, startupRole: false });
  return {
    async withFixtures(registry, fixtures, models, list, refused) {
      const trx = await database.db.startTransaction().execute();
      try {
        const copied = reachable(registry, [...new Set([...fixtures.keys(), ...models])]);
        await writeFixtures(trx, registry, fixtures, copied, refused);
        const lookup = (slug: string) => scratch(registry.get(slug));
        return await list(async (slug, plan) => {
          const model = lookup(slug);
          // The predicate the server adds to its statements for this plan, from its one compiler.
          const predicate = plan.kind === 'conditional' ? conditionSql(plan.condition, model, lookup, ALIAS) : sql.lit(plan.kind === 'always');
          const { rows } = await sql<{ id: number | string }>`select ${sql.ref(`${ALIAS}.id`)} as id from ${sql.table(model.table)} as ${sql.id(ALIAS)} where ${predicate} order by 1`.execute(trx);
          return rows.map((row) => Number(row.id));
        });
      } finally {
        await trx.rollback().execute();
      }
    },
    close: () => database.close(),
  };
}
