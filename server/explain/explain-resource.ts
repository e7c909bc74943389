import { explainPermission, type AuthorizeReason, type DecisionCheck, type GatehouseAbility } from '@gatehouse/engine';
import { checkResourceAction } from '../data/check-resource-action.js';
import { markDeniedBy } from '../permissions/denied-refusal.js';
import type { ServiceResource } from '../permissions/service-resources.js';
import type { ExplainInput } from './explain-schema.js';
import type { ExplainedMember } from './explained-member.js';

export interface ResourceDecision {
  readonly check: DecisionCheck;
  readonly reason?: AuthorizeReason;
}

/**
 * A check on another service's resource, decided as `POST {t}/authorize` decides it (the
 * registered action, no fields or includes, then the permission `{resource}.{action}` alone),
 * with the permission's sources for the member's explanation.
 */
export function explainResource(ability: GatehouseAbility, member: ExplainedMember, resource: ServiceResource, input: ExplainInput): ResourceDecision {
  const result = checkResourceAction(ability, resource, {
    model: input.model,
    action: input.action,
    id: input.id,
    fields: input.fields === undefined ? undefined : { write: input.fields },
    include: input.include,
  });
  const permission = `${resource.resource}.${input.action}`;
  if (result.allowed) return { check: { gate: 'policy', passed: true, detail: `holds ${permission}`, permission: explainPermission(member.sources, permission) } };
  const reason = markDeniedBy(result.reason, member.sources);
  if (reason.gate !== 'policy') return { reason, check: { gate: reason.gate as 'action' | 'request', passed: false, detail: result.message } };
  return { reason, check: { gate: 'policy', passed: false, detail: `lacks ${permission}`, permission: explainPermission(member.sources, permission) } };
}
