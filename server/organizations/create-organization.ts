import { createOrganization as insertOrganization } from '../db/repositories/organizations.js';
import type { GatehouseMiddleware, SignedInState } from '../http/state.js';
import type { Services } from '../services.js';
import { admitCreator, creationLimits } from './creation-rules.js';
import { draftOrganization, slugTakenError } from './draft-organization.js';
import { reservedSlugs } from './reserved-slugs.js';
import { serializeOrganization } from './serialize-organization.js';

/**
 * A signed-in caller `organizationCreation` admits creates an organization and becomes its
 * owner in the request's group: who may (403), then the fields (422), then the per-user limits
 * (429, 403).
 */
export function createOrganization(services: Services): GatehouseMiddleware<SignedInState> {
  const reserved = reservedSlugs(services.config.routeGroups);
  const rules = services.config.organizationCreation;
  return async (ctx) => {
    const userId = ctx.state.auth.user.id;
    const { limited } = await admitCreator(services.db, rules, userId, ctx.state.deadline);
    const draft = await draftOrganization(services.db, services.config, reserved, ctx.request.body, ctx.state.deadline);
    const organization = await insertOrganization(
      services.db,
      { ...draft, owner: { userId, roleId: draft.ownerRoleId, routeGroup: ctx.state.routeGroup.name } },
      limited ? creationLimits(rules, userId, draft.ownerRoleId) : undefined,
      ctx.state.deadline,
    );
    if (!organization) throw slugTakenError();
    ctx.status = 201;
    ctx.body = serializeOrganization(organization);
  };
}
