import { sql } from 'kysely';
import type { Executor } from './executor.js';

/** A table's column as the catalog describes it. */
export interface TableColumn {
  name: string;
  /** The type's name in the catalog (`int4`, `text`, `timestamptz`, `_text` for text[]...). */
  type: string;
}

/** The columns of the named tables (plain identifiers), each table's in their order, in one round trip; a missing table has none. */
export async function readTableColumns(db: Executor, tables: readonly string[]): Promise<Map<string, TableColumn[]>> {
  const { rows } = await sql<{ table: string; name: string; type: string }>`
    SELECT t.name AS table, a.attname AS name, ty.typname AS type
    FROM unnest(${[...tables]}::text[]) AS t(name)
    JOIN pg_attribute a ON a.attrelid = to_regclass(quote_ident(t.name)) AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_type ty ON ty.oid = a.atttypid
    ORDER BY t.name, a.attnum`.execute(db);
  const columns = new Map<string, TableColumn[]>();
  for (const { table, name, type } of rows) columns.set(table, [...(columns.get(table) ?? []), { name, type }]);
  return columns;
}
