import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/repositories/executor.js';
import type { BoundValues } from '../db/statements/bound-values.js';
import { readTableColumns, type TableColumn } from '../db/repositories/table-columns.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { exposedAttributes } from '../data/exposed-attributes.js';

type Column = RawBuilder<unknown>;

/**
 * JS's `Date#toJSON` of a timestamptz as pg parses it (`postgres-date`): UTC, milliseconds
 * truncated, the year as four digits or, outside 0..9999, signed six (1 BC is year 0); dates past
 * JS's range are null. An infinite one is the text PostgreSQL writes, as the pool reads it
 * (`db/connection/row-types.ts`).
 */
function isoTimestamp(value: Column): Column {
  const utc = sql`(${value} AT TIME ZONE 'UTC')`;
  // Years 1 to 9999, nearly every timestamp, in one to_char; the others spelled out below.
  const common = sql`${value} >= '0001-01-01 00:00:00+00' AND ${value} < '10000-01-01 00:00:00+00'`;
  const year = sql`(extract(year FROM ${utc})::int + CASE WHEN extract(year FROM ${utc}) < 0 THEN 1 ELSE 0 END)`;
  const printedYear = sql`CASE WHEN ${year} BETWEEN 0 AND 9999 THEN lpad(${year}::text, 4, '0') WHEN ${year} > 9999 THEN '+' || lpad(${year}::text, 6, '0') ELSE '-' || lpad((-${year})::text, 6, '0') END`;
  return sql`CASE WHEN ${common} THEN to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') WHEN NOT isfinite(${value}) THEN ${value}::text WHEN ${value} < '275760-09-13 00:00:00.001+00' THEN ${printedYear} || to_char(${utc}, '-MM-DD"T"HH24:MI:SS.MS"Z"') END`;
}

// Each writes the JSON text of a value, or null for null; only text needs PostgreSQL's escaping (to_json), which costs a type lookup a call.
const printed = (value: Column): Column => sql`${value}::text`;
const quoted = (value: Column): Column => sql`'"' || ${value}::text || '"'`;
const escaped = (value: Column): Column => sql`to_json(${value})::text`;

/**
 * The column types PostgreSQL writes exactly as Node would write what pg parses from them, each
 * with its JSON text: numbers and booleans as they print, numbers pg keeps as text (int8,
 * numeric) and uuids quoted, text escaped, timestamps as `toJSON` prints them. Any other type
 * (floats, whose shortest form PostgreSQL prints differently, json, dates pg reads in the
 * process's time zone...) keeps its model on Node.
 */
const JSON_TEXTS: Readonly<Record<string, (value: Column) => Column>> = {
  int2: printed,
  int4: printed,
  int8: quoted,
  numeric: quoted,
  bool: printed,
  text: escaped,
  varchar: escaped,
  uuid: quoted,
  _text: escaped,
  _varchar: escaped,
  timestamptz: (value) => sql`'"' || ${isoTimestamp(value)} || '"'`,
};

/** The columns a model's records may show, in the order Node writes them (the table's), each with its type. */
export type RecordColumns = readonly TableColumn[];

/** What the record's JSON shows of its model's columns: a flag per column, bound as a value, so the field list changes no SQL. */
export type ShownColumns = readonly boolean[];

/** The column of a statement's rows that holds their record's JSON. */
export const RECORD_JSON = '__json';

/** A record's JSON as a request asks for it: its model's columns, and which of them it shows. */
export interface RecordJsonFields {
  columns: RecordColumns;
  shown: ShownColumns;
}

/** The columns of `shown`, as flags over `columns`. */
export const recordJsonFields = (columns: RecordColumns, shown: ReadonlySet<string>): RecordJsonFields => ({ columns, shown: columns.map(({ name }) => shown.has(name)) });

/**
 * `fields` with its flags bound as a statement's values. Its JSON, part of the statement's key, is
 * the flags' placeholders alone: the columns are the model's, which the key names already.
 */
export const boundFields = ({ columns, shown }: RecordJsonFields, bound: BoundValues): RecordJsonFields => {
  const flags = shown.map((flag) => bound.bind(flag));
  return { columns, shown: flags, toJSON: () => flags } as RecordJsonFields;
};

// concat_ws takes at most 100 arguments, its separator one of them.
const MAX_COLUMNS = 99;

/**
 * One record as JSON text, built by PostgreSQL from the row `table` names in the statement (a
 * table or a subquery): the columns `shown` flags, written as Node's serializer writes them, keys
 * in the same order and no spaces (json_build_object would write some). Its SQL is the same
 * whatever the columns shown.
 */
export function recordJson(table: string, columns: RecordColumns, shown: ShownColumns): RawBuilder<string> {
  const members = columns.map(({ name, type }, index) => {
    const text = JSON_TEXTS[type]!(sql.ref(`${table}.${name}`));
    return sql`CASE WHEN ${shown[index]} THEN ${sql.lit(`${JSON.stringify(name)}:`)} || coalesce(${text}, 'null') END`;
  });
  return sql<string>`'{' || concat_ws(',', ${sql.join(members)}) || '}'`;
}

/**
 * Which models' records PostgreSQL can write as Node would, read from the catalog once at start:
 * a model whose every exposed column has a type of JSON_TEXTS. Until it is read (a database down
 * at start), or for any other model, records take Node's path; so does a request that asks for
 * computed attributes or includes (the caller decides that).
 */
export class RecordJsonCatalog {
  #tables = new Map<string, readonly TableColumn[]>();
  readonly #models = new WeakMap<ModelDefinition, readonly TableColumn[] | null>();

  async load(db: Executor, registry: ModelRegistry): Promise<void> {
    this.#tables = await readTableColumns(db, [...new Set(registry.models.map((model) => model.table))]);
  }

  /** The columns of the model's records PostgreSQL writes, or null where they need Node. */
  columns(model: ModelDefinition): RecordColumns | null {
    return this.#exposed(model);
  }

  #exposed(model: ModelDefinition): readonly TableColumn[] | null {
    let exposed = this.#models.get(model);
    if (exposed === undefined) {
      const columns = this.#tables.get(model.table);
      if (!columns) return null;
      const names = new Set(exposedAttributes(model, () => true));
      const shown = columns.filter(({ name }) => names.has(name));
      exposed = shown.length <= MAX_COLUMNS && shown.every(({ type }) => Object.hasOwn(JSON_TEXTS, type)) ? shown : null;
      this.#models.set(model, exposed);
    }
    return exposed;
  }
}
