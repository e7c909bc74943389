import { ForbiddenError, ForbiddenFieldsError, ForbiddenIncludeError, GatehouseError, UnknownIncludeError, policyMethodName, type AuthorizeReason, type PolicyMethod, POLICY_ACTIONS } from '@gatehouse/engine';
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

function gateOf(error: Error): AuthorizeReason | null {
  if (error instanceof ForbiddenFieldsError) return { gate: 'fields', fields: error.fields };
  if (error instanceof ForbiddenIncludeError || error instanceof UnknownIncludeError) return { gate: 'include', include: error.path };
  if (error instanceof UnknownModelError) return { gate: 'model' };
  if (error instanceof RecordNotFoundError) return { gate: 'record' };
  if (error instanceof NotFoundError) return { gate: 'action' };
  // Every domain error but a missing migration is the caller's, like an engine error below 500.
  if ((error instanceof DomainError && !(error instanceof DatabaseNotMigratedError)) || (error instanceof GatehouseError && error.status < 500)) return { gate: 'request' };
  return null;
}

/**
 * The refusal a data action's gate threw, as its request would answer it; `policy` explains a
 * policy method's 403. Anything that is not a refusal (a fault of the service) is thrown on.
 */
export function refusalOf(error: unknown, policy: () => AuthorizeReason): Refusal {
  if (error instanceof ForbiddenError) return { message: error.message, reason: policy() };
  const reason = error instanceof Error ? gateOf(error) : null;
  if (reason === null) throw error;
  return { message: (error as Error).message, reason };
}
