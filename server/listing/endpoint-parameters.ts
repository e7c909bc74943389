import { attributes } from './parameters/attributes.js';
import { computedAttributes } from './parameters/computed-attributes.js';
import { fields } from './parameters/fields.js';
import { filter } from './parameters/filter.js';
import { include } from './parameters/include.js';
import { cursor } from './parameters/cursor.js';
import { page, perPage } from './parameters/page.js';
import { scope } from './parameters/scope.js';
import { search } from './parameters/search.js';
import { sort } from './parameters/sort.js';
import type { QueryParameter } from './query-parameter.js';

/**
 * The query parameters each data endpoint accepts, in the order they are read (`fields` after
 * `include`); any other name is a 400. Routers and the API reference both take them from here.
 */
export const ENDPOINT_PARAMETERS = {
  /** Index and trashed. */
  index: [filter, sort, search, scope, page, perPage, cursor, include, fields, computedAttributes],
  show: [filter, include, fields, computedAttributes],
  computed: [filter, search, scope, attributes],
  audit: [page, perPage],
  /** Store, update and restore: the record they answer, with its includes. */
  write: [include],
  none: [],
} as const satisfies Record<string, readonly QueryParameter[]>;

export type EndpointKind = keyof typeof ENDPOINT_PARAMETERS;
