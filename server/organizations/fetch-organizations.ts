import { readQuery } from '../http/query.js';
import { required, type CurrentOrganization, type GatehouseMiddleware } from '../http/state.js';
import { loadIncludes, organizationIncludes } from './organization-includes.js';
import { serializeOrganization } from './serialize-organization.js';

const list = (value: string | undefined) => value?.split(',').map((item) => item.trim());

function matches(organization: CurrentOrganization, filters: { slug?: string; id?: string }): boolean {
  const slugs = list(filters.slug);
  const ids = list(filters.id);
  return (!slugs || slugs.includes(organization.slug)) && (!ids || ids.includes(String(organization.id)));
}

/**
 * `{t}/organizations`: the caller sees the organization of the request, as a one-element index
 * (`{data: [...]}`) narrowed by `filter[slug]` and `filter[id]`, with the requested includes.
 */
export function fetchOrganizations(): GatehouseMiddleware {
  return async (ctx) => {
    const query = readQuery(ctx, ['filter[slug]', 'filter[id]', 'include']);
    const includes = organizationIncludes(query.include, required(ctx, 'authorization').ability);
    const organization = required(ctx, 'organization');
    if (!matches(organization, { slug: query['filter[slug]'], id: query['filter[id]'] })) {
      ctx.body = { data: [] };
      return;
    }
    const loaded = await loadIncludes(required(ctx, 'trx'), organization, required(ctx, 'routeGroup').name, includes);
    ctx.body = { data: [{ ...serializeOrganization(organization), ...loaded }] };
  };
}
