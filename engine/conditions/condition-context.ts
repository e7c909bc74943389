import type { PolicyContext } from '../policy/policy-context.js';
import type { ConditionContext } from './resolve-condition.js';

/** The caller's facts that conditions read, from what a policy knows of the request. */
export function conditionContext({ user, organization, routeGroup }: Pick<PolicyContext, 'user' | 'organization' | 'routeGroup'>): ConditionContext {
  return { 'user.id': user?.id ?? null, 'organization.id': organization?.id ?? null, 'organization.slug': organization?.slug ?? null, route_group: routeGroup };
}
