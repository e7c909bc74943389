import { isMember } from '../db/repositories/memberships.js';
import { findOrganizationBySlug } from '../db/repositories/organizations.js';
import type { GatehouseMiddleware, SignedInState } from '../http/state.js';
import type { Services } from '../services.js';
import { reservedSlugs } from './reserved-slugs.js';
import { serializeOrganization } from './serialize-organization.js';
import { SLUG } from '../models/slug.js';

/**
 * Whether the slug in the path is taken, for any signed-in caller (a sign-up form asks before
 * creating). Reserved slugs count as taken. Only members get the organization itself.
 */
export function organizationExists(services: Services): GatehouseMiddleware<SignedInState> {
  const reserved = reservedSlugs(services.config.routeGroups);
  return async (ctx) => {
    const slug = ctx.params.organization ?? '';
    const organization = SLUG.test(slug) ? await findOrganizationBySlug(services.db, slug, ctx.state.deadline) : undefined;
    const member =
      organization !== undefined && (await isMember(services.db, organization.id, ctx.state.auth.user.id, ctx.state.routeGroup.name, ctx.state.deadline));
    const exists = organization !== undefined || reserved.has(slug);
    ctx.body = organization && member ? { exists, organization: serializeOrganization(organization) } : { exists };
  };
}
