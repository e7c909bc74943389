import type { CountPreference } from '../http/index-page.js';

type ListValue = string | number | boolean;
type OneOrMany = ListValue | ListValue[];

/** Query options of index and trashed requests; lists become the comma-joined values the server parses. */
export interface IndexQuery {
  /** `filter[field]=a,b` */
  filter?: Record<string, OneOrMany>;
  /** rhino-react's name for `filter`; both may be given. */
  filters?: Record<string, OneOrMany>;
  /** `sort=-created_at,title`: a leading minus sorts descending. */
  sort?: string | string[];
  search?: string;
  /** Relations to eager-load; dot notation for nested ones (`comments.author`). */
  include?: string | string[];
  /** rhino-react's name for `include`, as useOwner takes it. */
  includes?: string | string[];
  /** `fields[model]=a,b`: sparse fieldsets per model. */
  fields?: Record<string, string | string[]>;
  page?: number;
  perPage?: number;
  /** rhino-react's name for `perPage`. */
  per_page?: number;
  scope?: string;
  /** `?cursor=`: start after the position an earlier page's `meta.nextCursor` named (instead of `page`). */
  cursor?: string;
  /**
   * How the server counts the rows (sent as `Prefer: count=...`, not in the query string): `exact`
   * (the model's default unless it chose another), `planned` (the planner's estimate, fast on
   * large tables), `estimated` (exact when small, the estimate when large) or `none` (no total).
   */
  count?: CountPreference;
}

const list = (value: OneOrMany): string => (Array.isArray(value) ? value.join(',') : String(value));

export function indexParams(query: IndexQuery = {}): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [field, value] of Object.entries({ ...query.filters, ...query.filter })) params[`filter[${field}]`] = list(value);
  for (const [model, value] of Object.entries(query.fields ?? {})) params[`fields[${model}]`] = list(value);
  const plain: [string, OneOrMany | undefined][] = [
    ['sort', query.sort],
    ['search', query.search],
    ['include', query.include ?? query.includes],
    ['page', query.page],
    ['per_page', query.perPage ?? query.per_page],
    ['scope', query.scope],
    ['cursor', query.cursor],
  ];
  for (const [name, value] of plain) {
    if (value !== undefined && value !== '') params[name] = list(value);
  }
  return params;
}
