import { packAbilityRules } from '@gatehouse/engine';
import { callerAbilities } from '../data/authorize-checks.js';
import type { ServedCheck } from '../data/check-action.js';
import { answerRevalidated } from '../http/revalidated-answer.js';
import type { DataState, GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';

/**
 * The caller's role, effective permissions, packed CASL rules for record conditions, the
 * model-level abilities the policies give, and the organization they hold them in (what another
 * service's policies need); revalidated by ETag, so a client keeps it cheaply. Under an
 * organization, `served` are the checks tenant routes answer instead of the data routes.
 */
export function userRole(services: Services, served: readonly ServedCheck[]): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    const { role, permissions, ability } = ctx.state.authorization;
    const { organization } = ctx.state;
    answerRevalidated(ctx, {
      role,
      permissions,
      rules: packAbilityRules(ability),
      abilities: await callerAbilities(services, ctx, served),
      organization: organization ? { id: organization.id, slug: organization.slug } : null,
    });
  };
}
