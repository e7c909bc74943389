import { parseIncludeParam } from '../../engine/index.js';
import { isStoredInteger } from '../db/integer-range.js';
import { BadRequestError } from '../http/errors/bad-request-error.js';
import { MAX_PER_PAGE, type AttributeType, type ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { isIsoTimestamp } from './iso-timestamp.js';

export type FilterValue = string | number | boolean;

export interface ListQuery {
  filters: { column: string; values: FilterValue[] }[];
  sort: { column: string; direction: 'asc' | 'desc' }[];
  search: string | null;
  scopes: string[];
  page: number;
  perPage: number;
}

export interface ShapeQuery {
  /** Dot paths as requested; the include gate checks that each hop exists and may be read. */
  includes: string[];
  /** Requested attributes per model slug. */
  fields: Record<string, string[]>;
}

export type IndexQuery = ListQuery & ShapeQuery;

export type RawQuery = Record<string, string | string[] | undefined>;

/** Which query parameters an endpoint understands; anything else is a 400. */
export type QueryKind = 'index' | 'show' | 'computed' | 'none';

const ALLOWED: Record<QueryKind, readonly string[]> = {
  index: ['filter', 'sort', 'search', 'scope', 'page', 'per_page', 'include', 'fields'],
  show: ['include', 'fields'],
  computed: ['filter', 'search', 'scope'],
  none: [],
};

interface Parameter {
  name: string;
  key: string | null;
  value: string;
}

function readParameters(raw: RawQuery, kind: QueryKind): Parameter[] {
  const parameters: Parameter[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const match = /^([a-z_]+)(?:\[([^\]]*)\])?$/.exec(name);
    const base = match?.[1];
    const key = match?.[2] ?? null;
    const bracketed = base === 'filter' || base === 'fields';
    if (!base || !ALLOWED[kind].includes(base) || bracketed !== (key !== null)) {
      throw new BadRequestError(`Unknown query parameter: ${name}.`);
    }
    if (Array.isArray(value)) throw new BadRequestError(`The query parameter ${name} may appear only once.`);
    parameters.push({ name, key, value });
  }
  return parameters;
}

const list = (value: string) => value.split(',').map((part) => part.trim()).filter((part) => part !== '');

function positiveInteger(name: string, value: string, max: number): number {
  const number = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= max)) throw new BadRequestError(`${name} must be an integer between 1 and ${max}.`);
  return number;
}

function filterValue(name: string, type: AttributeType, value: string): FilterValue {
  switch (type) {
    case 'integer':
      if (/^-?\d{1,10}$/.test(value) && isStoredInteger(Number(value))) return Number(value);
      break;
    case 'number':
      if (value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      break;
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      break;
    case 'timestamp':
      if (isIsoTimestamp(value)) return value;
      break;
    default:
      return value;
  }
  throw new BadRequestError(`Invalid value for ${name}: ${value}.`);
}

/** Models an include list reaches, so `fields[...]` may name them; an unknown hop reaches nothing. */
function reachableModels(registry: ModelRegistry, model: ModelDefinition, includes: string[]): Map<string, ModelDefinition> {
  const reachable = new Map([[model.slug, model]]);
  for (const path of includes) {
    let current: ModelDefinition | undefined = model;
    for (const hop of path.split('.')) {
      current = current && registry.relation(current, hop)?.target;
      if (current) reachable.set(current.slug, current);
    }
  }
  return reachable;
}

/**
 * Turns a query string into a typed request. Every name is checked against the model's
 * registration here, so the query builder only ever sees whitelisted identifiers; include paths
 * are checked hop by hop by the include gate, which also needs the caller's permissions.
 */
export function parseIndexQuery(registry: ModelRegistry, model: ModelDefinition, raw: RawQuery, kind: QueryKind = 'index'): IndexQuery {
  const query: IndexQuery = { filters: [], sort: [], search: null, scopes: [], page: 1, perPage: model.perPage, includes: [], fields: {} };
  const fieldParameters: Parameter[] = [];
  for (const parameter of readParameters(raw, kind)) {
    const { name, key, value } = parameter;
    switch (parameter.name.replace(/\[.*$/, '')) {
      case 'filter': {
        if (!model.filters.includes(key!)) throw new BadRequestError(`Unknown filter: ${key}.`);
        const type = model.attributes[key!]!;
        query.filters.push({ column: key!, values: list(value).map((item) => filterValue(name, type, item)) });
        break;
      }
      case 'sort':
        query.sort = list(value).map((item) => {
          const column = item.replace(/^-/, '');
          if (!model.sorts.includes(column)) throw new BadRequestError(`Unknown sort: ${column}.`);
          return { column, direction: item.startsWith('-') ? ('desc' as const) : ('asc' as const) };
        });
        break;
      case 'search':
        query.search = value.trim() === '' ? null : value;
        if (query.search !== null && model.search.length === 0) throw new BadRequestError(`Model ${model.slug} is not searchable.`);
        break;
      case 'scope':
        query.scopes = list(value).map((scope) => {
          if (!Object.hasOwn(model.scopes, scope)) throw new BadRequestError(`Unknown scope: ${scope}.`);
          return scope;
        });
        break;
      case 'page':
        query.page = positiveInteger('page', value, 1_000_000_000);
        break;
      case 'per_page':
        query.perPage = positiveInteger('per_page', value, MAX_PER_PAGE);
        break;
      case 'include':
        query.includes = parseIncludeParam(value);
        break;
      default:
        fieldParameters.push(parameter);
    }
  }
  const reachable = reachableModels(registry, model, query.includes);
  for (const { key, value } of fieldParameters) {
    const target = reachable.get(key!);
    if (!target) throw new BadRequestError(`Unknown model in fields: ${key}.`);
    query.fields[key!] = list(value).map((field) => {
      if (!Object.hasOwn(target.attributes, field) || target.hidden.includes(field)) throw new BadRequestError(`Unknown field: ${key}.${field}.`);
      return field;
    });
  }
  if (query.sort.length === 0) {
    const column = model.defaultSort.replace(/^-/, '');
    query.sort = [{ column, direction: model.defaultSort.startsWith('-') ? 'desc' : 'asc' }];
  }
  return query;
}
