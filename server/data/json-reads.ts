import type { CompiledQuery } from 'kysely';
import { trailReaderKey } from '../audit/trail-field-guesses.js';
import { sentAhead } from '../db/transactions/read-ahead.js';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { ShapeQuery } from '../listing/parsed-query.js';
import { recordJsonFields, type RecordJsonCatalog, type RecordJsonFields } from '../listing/record-json.js';
import type { DataActionContext } from './data-action-context.js';
import { readableGuesses } from './readable-guesses.js';
import { recordSerializer, shownAttributes } from './serialize-record.js';

/** How a route reads records: where PostgreSQL may write their JSON, and the organization its reader addresses (for the guesses). */
export interface RecordReading {
  catalog: RecordJsonCatalog;
  organizationSlug: string | null;
}

/** Who plans a read ahead, as `plannedFields` needs them. */
export interface JsonPlanner {
  model: ModelDefinition;
  scope: ScopeContext;
  organizationSlug: string | null;
}

/** A reader as `readableGuesses` keys it. */
const readerKey = ({ routeGroup, userId }: ScopeContext, organizationSlug: string | null, model: ModelDefinition) => trailReaderKey({ routeGroup, organizationSlug, userId, model: model.slug });

/**
 * What PostgreSQL writes of the records `readable` lets through (every exposed attribute when
 * null), unless the request needs Node to write them: includes, computed attributes.
 */
function jsonFields(catalog: RecordJsonCatalog, model: ModelDefinition, query: ShapeQuery, readable: ReadonlySet<string> | null): RecordJsonFields | null {
  const columns = catalog.columns(model);
  if (!columns || query.includes.length > 0 || query.computedAttributes.length > 0) return null;
  return recordJsonFields(columns, shownAttributes(readable ?? new Set(columns.map(({ name }) => name)), query.fields[model.slug]));
}

/** The JSON fields of a read planned ahead: those its reader could read the last time, every exposed one the first time. */
export function plannedFields({ model, scope, organizationSlug }: JsonPlanner, query: ShapeQuery, catalog: RecordJsonCatalog | null): RecordJsonFields | null {
  return catalog && jsonFields(catalog, model, query, readableGuesses.get(readerKey(scope, organizationSlug, model)) ?? null);
}

/** A read whose records PostgreSQL writes: the fields the caller's read gate shows, and those its read-ahead guessed. */
export interface JsonRead {
  fields: RecordJsonFields;
  guessed: RecordJsonFields | null;
}

/** The JSON read of a request now that the caller's read gate is known, remembered for its reader's next plan; null where Node writes the records. */
export function jsonRead(context: DataActionContext, model: ModelDefinition, query: ShapeQuery, reading: RecordReading | null): JsonRead | null {
  // A model whose records Node writes (every model, unless `recordJson: 'postgres'`) costs nothing here.
  if (!reading?.catalog.columns(model)) return null;
  const key = readerKey(context.scope, reading.organizationSlug, model);
  const guessed = plannedFields({ model, scope: context.scope, organizationSlug: reading.organizationSlug }, query, reading.catalog);
  const readable = recordSerializer(context).readable(model);
  readableGuesses.set(key, readable);
  const fields = jsonFields(reading.catalog, model, query, readable);
  return fields && { fields, guessed };
}

/** A record's JSON, cut to the attributes `fields` shows: JSON.stringify writes the rest exactly as PostgreSQL did. */
export type JsonNarrowing = ((json: string) => string) | null;

/** Whether `guessed` shows every column `fields` does, and more. */
const wider = (guessed: RecordJsonFields, fields: RecordJsonFields) =>
  fields.shown.every((shown, index) => !shown || guessed.shown[index]) && guessed.shown.some((shown, index) => shown !== fields.shown[index]);

function narrowing({ columns, shown }: RecordJsonFields): (json: string) => string {
  const kept = new Set(columns.filter((_, index) => shown[index]).map(({ name }) => name));
  return (json) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(json) as Record<string, unknown>).filter(([name]) => kept.has(name))));
}

/**
 * The statement a JSON read runs (`statementOf` its fields), and how its records' JSON is cut. A
 * read-ahead that guessed more fields than the caller reads now (the first read of a reader
 * guesses every exposed one) sent its statement with COMMIT: that one is read, and each record cut
 * to the caller's fields in Node, so the read still takes one round trip. Otherwise the statement
 * of the caller's fields (sent again, when the guess had fewer: `readLast`).
 */
export async function jsonStatement(context: DataActionContext, { fields, guessed }: JsonRead, statementOf: (fields: RecordJsonFields) => CompiledQuery): Promise<{ statement: CompiledQuery; narrow: JsonNarrowing }> {
  const statement = statementOf(fields);
  if (guessed && wider(guessed, fields)) {
    const guessedStatement = statementOf(guessed);
    if (await sentAhead(context.trx, [guessedStatement])) return { statement: guessedStatement, narrow: narrowing(fields) };
  }
  return { statement, narrow: null };
}
