import { AUTHORIZE_GATES, ForbiddenError, ForbiddenFieldsError, ForbiddenIncludeError, GatehouseError, UnknownIncludeError, policyMethodName, type AuthorizeGate, type AuthorizeReason, type PolicyMethod, POLICY_ACTIONS } from '@gatehouse/engine';
import type { DataPolicy } from './data-action-context.js';
import { RecordNotFoundError, UnknownModelError } from '../errors/data-errors.js';
import { DatabaseNotMigratedError } from '../errors/database-not-migrated-error.js';
import { DomainError } from '../errors/domain-error.js';
import { NotFoundError } from '../errors/not-found-error.js';

export interface Refusal {
  message: string;
  reason: AuthorizeReason;
}

/** The reason of a policy method's refusal. */
export function policyRefusal(policy: DataPolicy, method: PolicyMethod): AuthorizeReason {
  const permission = `${policy.resourceSlug}.${POLICY_ACTIONS[method]}`;
  return policy.hasPermission(permission) ? { gate: 'policy', permission, policy: policyMethodName(policy, method) } : { gate: 'policy', permission };
}

/** The reason a 403 of the data routes answers with, when the error carries one a check can have. */
function answeredReason(error: unknown): AuthorizeReason | null {
  if (!(error instanceof GatehouseError) || error.refusal === undefined) return null;
  const { gate, ...rest } = error.refusal;
  return (AUTHORIZE_GATES as readonly string[]).includes(gate) ? { gate: gate as AuthorizeGate, ...rest } : null;
}

function gateOf(error: Error): AuthorizeReason | null {
  if (error instanceof ForbiddenFieldsError || error instanceof ForbiddenIncludeError) return answeredReason(error);
  if (error instanceof UnknownIncludeError) return { gate: 'include', include: error.path };
  if (error instanceof UnknownModelError) return { gate: 'model' };
  if (error instanceof RecordNotFoundError) return { gate: 'record' };
  if (error instanceof NotFoundError) return { gate: 'action' };
  // Every domain error but a missing migration is the caller's, like an engine error below 500.
  if ((error instanceof DomainError && !(error instanceof DatabaseNotMigratedError)) || (error instanceof GatehouseError && error.status < 500)) return { gate: 'request' };
  return null;
}

/**
 * The refusal a data action's gate threw, as its request would answer it (the 403's own reason,
 * record conditions included); `policy` explains a policy method's 403 that carries none. Anything that is not a refusal (a fault of the service) is thrown on.
 */
export function refusalOf(error: unknown, policy: () => AuthorizeReason): Refusal {
  if (error instanceof ForbiddenError) return { message: error.message, reason: answeredReason(error) ?? policy() };
  const reason = error instanceof Error ? gateOf(error) : null;
  if (reason === null) throw error;
  return { message: (error as Error).message, reason };
}
