import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTableColumns } from '../../../server/db/repositories/table-columns.js';
import { defineModel } from '../../../server/models/define-model.js';
import { registerModels } from '../../../server/models/register-models.js';
import { RECORD_JSON, RecordJsonCatalog, recordJson } from '../../../server/listing/record-json.js';
import type { LooseSchema } from '../../../server/models/loose-schema.js';
import type { Executor } from '../../../server/db/repositories/executor.js';
import { ROW_TYPES } from '../../../server/db/connection/row-types.js';
import { createEmptyDatabase, type TestDatabase } from '../../support/database.js';

// Every column type PostgreSQL writes a record's JSON for, beyond the demo's (integer, text,
// timestamptz): its JSON must be what JSON.stringify writes of the row pg parses, as the server's
// pool parses it. A type it cannot write so keeps its model on Node.

let database: TestDatabase;
let db: Kysely<LooseSchema>;
// The catalog reads through the service's typed executor; these tables are outside its schema.
const catalogDb = () => db as unknown as Executor;

const TABLE = `CREATE TABLE typed (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  small smallint, big bigint, amount numeric, flag boolean, tag uuid, label varchar(40), names text[], codes varchar[], at timestamptz
)`;

beforeAll(async () => {
  database = await createEmptyDatabase();
  db = new Kysely<LooseSchema>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.ownerUrl, max: 1, types: ROW_TYPES }) }) });
  await sql.raw(TABLE).execute(db);
  await sql.raw('CREATE TABLE floats (id integer PRIMARY KEY, ratio double precision)').execute(db);
  await sql
    .raw(
      `INSERT INTO typed (small, big, amount, flag, tag, label, names, codes, at) VALUES
      (-32768, 9223372036854775807, 12345678901234567890.000100, true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'q"uote\\\\', ARRAY['a', NULL, 'é😀', E'\\n\\u0001'], ARRAY['x'], '2024-02-29 23:59:59.999999+00'),
      (0, -1, 'NaN', false, NULL, '', ARRAY[]::text[], NULL, '-infinity'),
      (NULL, NULL, -0.5, NULL, NULL, NULL, ARRAY[ARRAY['a','b'],ARRAY['c','d']], ARRAY[NULL]::varchar[], '0044-03-15 12:00:00+00 BC')`,
    )
    .execute(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('a record’s JSON written by PostgreSQL', () => {
  it('is what JSON.stringify writes of the row pg parses, for every type it writes', async () => {
    const columns = (await readTableColumns(catalogDb(), ['typed'])).get('typed')!;
    expect(columns.map(({ type }) => type)).toEqual(['int4', 'int2', 'int8', 'numeric', 'bool', 'uuid', 'varchar', '_text', '_varchar', 'timestamptz']);
    for (const shown of [columns.map(() => true), columns.map((_, index) => index % 2 === 0)]) {
      const rows = await db
        .selectFrom('typed')
        .selectAll()
        .select(recordJson('typed', columns, shown).as(RECORD_JSON))
        .orderBy('id')
        .execute();
      expect(rows).toHaveLength(3);
      for (const { [RECORD_JSON]: json, ...row } of rows) {
        const kept = Object.fromEntries(Object.entries(row).filter(([name]) => shown[columns.findIndex((column) => column.name === name)]));
        expect(json).toBe(JSON.stringify(kept));
      }
    }
  });

  it('is left to Node for a model with a column of another type', async () => {
    const models = [
      defineModel({ slug: 'typed', tenantOwned: false, attributes: { small: 'integer', big: 'string', at: 'timestamp' }, fillable: [] }),
      defineModel({ slug: 'floats', tenantOwned: false, attributes: { ratio: 'number' }, fillable: [] }),
    ];
    const registry = registerModels({ models }, []);
    const catalog = new RecordJsonCatalog();
    await catalog.load(catalogDb(), registry);
    expect(catalog.columns(registry.get('typed'))?.map(({ name }) => name)).toEqual(['id', 'small', 'big', 'at']);
    expect(catalog.columns(registry.get('floats'))).toBeNull();
  });
});
