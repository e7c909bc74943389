import { bodyOf } from '../http/response-body.js';
import { indexParams } from '../urls/index-params.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

export interface OrganizationMember {
  id: number;
  name: string;
  pivot: { role_id: number };
  [attribute: string]: unknown;
}

export interface Organization {
  id: number;
  name: string;
  slug: string;
  /** Present only when requested through `includes`. */
  users?: OrganizationMember[];
  /** Present only when requested through `includes`. */
  roles?: { id: number; name: string; [attribute: string]: unknown }[];
  [attribute: string]: unknown;
}

export interface OwnerOptions {
  /** Relations to eager-load, e.g. `['users', 'roles']`. */
  includes?: string[];
  /** Another organization than the selected one. */
  slug?: string;
}

/** The organization the session works in (or `options.slug`); data is null when the server lists none. */
export function useOwner(options: OwnerOptions = {}) {
  const scope = useTenantScope(options.slug);
  const params = indexParams({ filter: { slug: scope.organization ?? '' }, include: options.includes });
  return useScopedQuery(scope, 'organizations', ['owner', params], async (http, base) => {
    const { data } = await bodyOf(http.get<{ data: Organization[] }>(`${base}/organizations`, { params }));
    return data[0] ?? null;
  });
}
