import type { GatehouseAbility } from '@gatehouse/engine';
import type { ServiceResource } from '../permissions/service-resources.js';
import type { ActionCheck, CheckResult } from './check-action.js';

/**
 * A check on another service's resource: its action must be registered, and the caller's
 * permissions decide, as `{resource}.{action}`. Gatehouse holds none of its records or fields,
 * so an id is the service's to look up and fields or includes cannot be checked here.
 */
export function checkResourceAction(ability: GatehouseAbility, resource: ServiceResource, check: ActionCheck): CheckResult {
  if (!resource.actions.includes(check.action)) return { allowed: false, message: `Unknown action: ${check.action}.`, reason: { gate: 'action' } };
  if (check.fields !== undefined || check.include !== undefined) {
    return { allowed: false, message: `${resource.resource} is a resource of ${resource.service}: its fields and includes are checked there.`, reason: { gate: 'request' } };
  }
  if (ability.can(check.action, resource.resource)) return { allowed: true };
  return { allowed: false, message: 'This action is unauthorized.', reason: { gate: 'policy', permission: `${resource.resource}.${check.action}` } };
}
