import { ForbiddenError, ForbiddenFieldsError, ForbiddenIncludeError, GatehouseError, UnknownIncludeError, policyMethodName, type PolicyMethod, POLICY_ACTIONS } from '@gatehouse/engine';
import { HttpError } from '../http/errors/http-error.js';
import type { DataPolicy } from './data-context.js';
import { RecordNotFoundError, UnknownModelError } from '../errors/data-errors.js';

/**
 * Which gate refused, with only what the caller may know about themself: the permission an
 * action needs and, when they hold it, the policy override that refused anyway; the fields or
 * include hop refused. A record outside the gate is `record` whether it is missing or hidden.
 */
export interface RefusalReason {
  gate: 'model' | 'action' | 'request' | 'record' | 'policy' | 'fields' | 'include';
  permission?: string;
  policy?: string;
  fields?: readonly string[];
  include?: string;
}

export interface Refusal {
  message: string;
  reason: RefusalReason;
}

/** The reason of a policy method's refusal. */
export function policyRefusal(policy: DataPolicy, method: PolicyMethod): RefusalReason {
  const permission = `${policy.resourceSlug}.${POLICY_ACTIONS[method]}`;
  return policy.hasPermission(permission) ? { gate: 'policy', permission, policy: policyMethodName(policy, method) } : { gate: 'policy', permission };
}

function gateOf(error: Error): RefusalReason | null {
  if (error instanceof ForbiddenFieldsError) return { gate: 'fields', fields: error.fields };
  if (error instanceof ForbiddenIncludeError || error instanceof UnknownIncludeError) return { gate: 'include', include: error.path };
  if (error instanceof UnknownModelError) return { gate: 'model' };
  if (error instanceof RecordNotFoundError) return { gate: 'record' };
  if (error instanceof HttpError && error.status === 404) return { gate: 'action' };
  if ((error instanceof HttpError || error instanceof GatehouseError) && error.status < 500) return { gate: 'request' };
  return null;
}

/**
 * The refusal a data action's gate threw, as its request would answer it; `policy` explains a
 * policy method's 403. Anything that is not a refusal (a fault of the service) is thrown on.
 */
export function refusalOf(error: unknown, policy: () => RefusalReason): Refusal {
  if (error instanceof ForbiddenError) return { message: error.message, reason: policy() };
  const reason = error instanceof Error ? gateOf(error) : null;
  if (reason === null) throw error;
  return { message: (error as Error).message, reason };
}
