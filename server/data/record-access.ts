import type { AccessPlan } from '@gatehouse/engine';
import type { ModelRegistry } from '../models/model-registry.js';
import type { RecordAccess } from '../models/model-types.js';

/** Which records of a model a caller may act on, by action: their permissions' plans (`Authorization.plan`). */
export type AccessPlans = (slug: string, action: string) => AccessPlan;

/** The records `plans` reach as record statements read them: the condition of a conditional plan, nothing for all or none. */
export const recordAccess = (plans: AccessPlans, registry: ModelRegistry): RecordAccess => ({
  condition(slug, action) {
    const answer = plans(slug, action);
    return answer.kind === 'conditional' ? answer.condition : null;
  },
  model: (slug) => registry.get(slug),
});
