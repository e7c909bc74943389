import { findOrganizationBySlug } from '../db/repositories/organizations.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import type { CurrentOrganization, GroupState, Stage } from '../http/state.js';
import type { Services } from '../services.js';
import { organizationSlug } from './organization-slug.js';
import { SLUG } from '../models/slug.js';

/** Loads the addressed organization (404 when there is none), within the request's deadline; tenancy 'none' passes through. */
export function resolveOrganization(services: Services): Stage<GroupState, { organization?: CurrentOrganization }> {
  return async (ctx, next) => {
    const group = ctx.state.routeGroup;
    if (group.tenancy === 'none') return next({});
    const slug = organizationSlug(ctx, group);
    const organization = slug && SLUG.test(slug) ? await findOrganizationBySlug(services.db, slug, ctx.state.deadline) : undefined;
    if (!organization) throw new OrganizationNotFoundError();
    await next({ organization });
  };
}
