import { readQuery } from '../http/query-string.js';
import type { CurrentOrganization, GatehouseMiddleware, TenantMemberState } from '../http/state.js';
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
export function fetchOrganizations(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const query = readQuery(ctx, ['filter[slug]', 'filter[id]', 'include']);
    const includes = organizationIncludes(query.include, ctx.state.authorization.ability);
    const organization = ctx.state.organization;
    if (!matches(organization, { slug: query['filter[slug]'], id: query['filter[id]'] })) {
      ctx.body = { data: [] };
      return;
    }
    const loaded = await loadIncludes(ctx.state.trx, organization, ctx.state.routeGroup.name, includes);
    ctx.body = { data: [{ ...serializeOrganization(organization), ...loaded }] };
  };
}
