import { createOrganization as insertOrganization } from '../db/repositories/organizations.js';
import { findRolesBySlug } from '../db/repositories/roles.js';
import { ValidationError } from '../http/errors/validation-error.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { createOrganizationSchema } from './organization-schemas.js';
import { reservedSlugs } from './reserved-slugs.js';
import { serializeOrganization } from './serialize-organization.js';

/** Role ids for the configured role slugs; roles are seeded data, so a missing one is a setup fault. */
async function startingRoles(services: Services): Promise<{ ownerRoleId: number; rolePermissions: Map<number, readonly string[]> }> {
  const { organizationRoles, ownerRole } = services.config;
  const roles = await findRolesBySlug(services.db, Object.keys(organizationRoles));
  const idOf = new Map(roles.map((role) => [role.slug, role.id]));
  const missing = Object.keys(organizationRoles).filter((slug) => !idOf.has(slug));
  if (missing.length > 0) throw new Error(`Roles ${missing.join(', ')} are configured for new organizations but missing from the roles table.`);
  return {
    ownerRoleId: idOf.get(ownerRole)!,
    rolePermissions: new Map(Object.entries(organizationRoles).map(([slug, permissions]) => [idOf.get(slug)!, permissions])),
  };
}

/** Any signed-in caller may create an organization and becomes its owner in the request's group. */
export function createOrganization(services: Services): GatehouseMiddleware {
  const reserved = reservedSlugs(services.config.routeGroups);
  return async (ctx) => {
    const input = validate(createOrganizationSchema, ctx.request.body);
    if (reserved.has(input.slug)) throw ValidationError.field('slug', 'The slug is reserved.');
    const { ownerRoleId, rolePermissions } = await startingRoles(services);
    const organization = await insertOrganization(services.db, {
      name: input.name,
      slug: input.slug,
      owner: { userId: required(ctx, 'auth').user.id, roleId: ownerRoleId, routeGroup: required(ctx, 'routeGroup').name },
      rolePermissions,
    });
    if (!organization) throw ValidationError.field('slug', 'The slug has already been taken.');
    ctx.status = 201;
    ctx.body = serializeOrganization(organization);
  };
}
