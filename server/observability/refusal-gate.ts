import { DECISION_GATES, ForbiddenError, ForbiddenFieldsError, ForbiddenIncludeError, type DecisionGate } from '@gatehouse/engine';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import { SessionOfAnotherGroupError } from '../errors/session-of-another-group-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';

const isDecisionGate = (value: unknown): value is DecisionGate => (DECISION_GATES as readonly unknown[]).includes(value);

const GATES: readonly [new (...args: never[]) => Error, DecisionGate][] = [
  [UnauthenticatedError, 'authentication'],
  [NotGroupMemberError, 'route_group'],
  [SessionOfAnotherGroupError, 'route_group'],
  [OrganizationNotFoundError, 'organization'],
  [RecordNotFoundError, 'record'],
  [ForbiddenError, 'policy'],
  [ForbiddenFieldsError, 'fields'],
  [ForbiddenIncludeError, 'include'],
  [AccessDeniedError, 'administration'],
];

/**
 * The gate that refused, for an error that is a refusal; null for any other error. A refusal
 * that names its gate (`refusal.gate`, the reason a 403 explains itself with) is taken at its word.
 */
export function refusalGate(error: unknown): DecisionGate | null {
  const named = (error as { refusal?: { gate?: unknown } } | null)?.refusal?.gate;
  if (isDecisionGate(named)) return named;
  return GATES.find(([type]) => error instanceof type)?.[1] ?? null;
}
