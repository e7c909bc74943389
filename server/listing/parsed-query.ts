import type { ModelDefinition } from '../models/define-model.js';
import type { TypedValue } from '../models/typed-value.js';

export interface ListQuery {
  filters: { column: string; values: TypedValue[] }[];
  sort: { column: string; direction: 'asc' | 'desc' }[];
  search: string | null;
  /** Named scopes in request order; `argument` is null for a scope that declares none. */
  scopes: { name: string; argument: TypedValue | null }[];
  page: number;
  perPage: number;
  /** `cursor=`: an opaque keyset position, checked against the model and sort when the page is read. */
  cursor: string | null;
}

export interface ShapeQuery {
  /** Dot paths as requested; the include gate checks that each hop exists and may be read. */
  includes: string[];
  /** Requested attributes per model slug. */
  fields: Record<string, string[]>;
  /** The endpoint model's computed attributes to add to each record. */
  computedAttributes: string[];
}

export interface ComputedQuery {
  /** The aggregates to compute; null for every declared one. */
  aggregates: string[] | null;
}

/** What any data endpoint's query string can ask for; an endpoint reads only the parameters it accepts. */
export type ParsedQuery = ListQuery & ShapeQuery & ComputedQuery;

/** The request of an empty query string: the first page, the model's page size and default order. */
export function defaultQuery(model: ModelDefinition): ParsedQuery {
  const column = model.defaultSort.replace(/^-/, '');
  return {
    filters: [],
    sort: [{ column, direction: model.defaultSort.startsWith('-') ? 'desc' : 'asc' }],
    search: null,
    scopes: [],
    page: 1,
    perPage: model.perPage,
    cursor: null,
    includes: [],
    fields: {},
    computedAttributes: [],
    aggregates: null,
  };
}
