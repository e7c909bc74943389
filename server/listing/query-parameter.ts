import { InvalidQueryError } from '../errors/invalid-query-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { MAX_QUERY_LIST, MAX_QUERY_VALUE_LENGTH } from '../models/request-limits.js';
import type { ParsedQuery } from './parsed-query.js';

/** The query string as Koa parses it: a repeated name becomes an array. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** One name of the query string: `filter[status]=a,b` has the name `filter` and the key `status`. */
export interface QueryEntry {
  /** As it appeared, for messages (`filter[status]`). */
  raw: string;
  key: string | null;
  value: string;
}

export interface QueryTarget {
  registry: ModelRegistry;
  model: ModelDefinition;
}

/** An OpenAPI parameter object; the reference documents each parameter as its parser reads it. */
export interface DocumentedParameter {
  name: string;
  in: 'query';
  description: string;
  schema: Record<string, unknown>;
}

/**
 * One query parameter of the data endpoints: its grammar (bare, bracketed or both), how it reads
 * into the request and how it is documented. Whitelisting against the model happens here, so the
 * query builder only ever sees registered identifiers.
 */
export interface QueryParameter {
  readonly name: string;
  /** `always`: only `name[key]`; `never`: only `name`; `either`: both forms. */
  readonly keyed: 'always' | 'never' | 'either';
  /** Reads this parameter's entries, in query string order, given what the parameters listed before it read. */
  read(entries: readonly QueryEntry[], target: QueryTarget, request: ParsedQuery): Partial<ParsedQuery>;
  document(model: ModelDefinition): DocumentedParameter[];
}

/** 400 naming the limit when `items` holds more than MAX_QUERY_LIST. */
export function bounded<T>(name: string, items: readonly T[]): readonly T[] {
  if (items.length > MAX_QUERY_LIST) throw new InvalidQueryError(`The query parameter ${name} may list at most ${MAX_QUERY_LIST} items.`);
  return items;
}

/** `value` when it holds at most MAX_QUERY_VALUE_LENGTH characters, else a 400 naming the limit: it may go into SQL as it is. */
export function shortValue(name: string, value: string): string {
  if (value.length > MAX_QUERY_VALUE_LENGTH) throw new InvalidQueryError(`A value of the query parameter ${name} may be at most ${MAX_QUERY_VALUE_LENGTH} characters long.`);
  return value;
}

/** `a, b,,c` as `['a', 'b', 'c']`, at most MAX_QUERY_LIST of them, each at most MAX_QUERY_VALUE_LENGTH characters. */
export const commaList = ({ raw, value }: QueryEntry): string[] =>
  bounded(
    raw,
    value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  ).map((part) => shortValue(raw, part));

export const documented = (name: string, description: string, schema: Record<string, unknown> = { type: 'string', maxLength: MAX_QUERY_VALUE_LENGTH }): DocumentedParameter => ({
  name,
  in: 'query',
  description,
  schema,
});

/** A `commaList` parameter, documented with its bounds: each item's length, not the whole value's. */
export const documentedList = (name: string, description: string): DocumentedParameter =>
  documented(name, `${description} At most ${MAX_QUERY_LIST} items of at most ${MAX_QUERY_VALUE_LENGTH} characters each.`, { type: 'string' });
