import { createOrganization as insertOrganization } from '../db/repositories/organizations.js';
import type { GatehouseMiddleware, SignedInState } from '../http/state.js';
import type { Services } from '../services.js';
import { draftOrganization, slugTakenError } from './draft-organization.js';
import { reservedSlugs } from './reserved-slugs.js';
import { serializeOrganization } from './serialize-organization.js';

/** Any signed-in caller may create an organization and becomes its owner in the request's group. */
export function createOrganization(services: Services): GatehouseMiddleware<SignedInState> {
  const reserved = reservedSlugs(services.config.routeGroups);
  return async (ctx) => {
    const draft = await draftOrganization(services.db, services.config, reserved, ctx.request.body);
    const organization = await insertOrganization(services.db, {
      ...draft,
      owner: { userId: ctx.state.auth.user.id, roleId: draft.ownerRoleId, routeGroup: ctx.state.routeGroup.name },
    });
    if (!organization) throw slugTakenError();
    ctx.status = 201;
    ctx.body = serializeOrganization(organization);
  };
}
