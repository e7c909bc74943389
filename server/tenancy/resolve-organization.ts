import { findOrganizationBySlug } from '../db/repositories/organizations.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import { slugPattern } from '../models/fields.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import { organizationSlug } from './organization-slug.js';

/** Loads the addressed organization (404 when there is none); tenancy 'none' passes through. */
export function resolveOrganization(services: Services): GatehouseMiddleware {
  return async (ctx, next) => {
    const group = required(ctx, 'routeGroup');
    if (group.tenancy !== 'none') {
      const slug = organizationSlug(ctx, group);
      const organization = slug && slugPattern.test(slug) ? await findOrganizationBySlug(services.db, slug) : undefined;
      if (!organization) throw new OrganizationNotFoundError();
      ctx.state.organization = organization;
    }
    await next();
  };
}
