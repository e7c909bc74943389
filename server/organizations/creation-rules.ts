import { abilityPermits, WILDCARD } from '@gatehouse/engine';
import type { ResolvedOrganizationCreation } from '../config/organization-creation-config.js';
import type { Executor } from '../db/repositories/executor.js';
import { countOrganizationsWithRole } from '../db/repositories/memberships.js';
import { countHits, rateLimitKey } from '../db/repositories/rate-limits.js';
import { findUserById } from '../db/repositories/users.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import { OwnedOrganizationsLimitError } from '../errors/owned-organizations-limit-error.js';
import { TooManyAttemptsError } from '../errors/too-many-attempts-error.js';
import { compiledPermissions } from '../permissions/compiled-permissions.js';

const HOUR_SECONDS = 60 * 60;

/** The user's counter of organizations created, in rate_limits. */
export const creationCounterKey = (userId: number): string => rateLimitKey('organizationCreation', 'user', String(userId));

/**
 * Whether `organizationCreation.allowed` lets the user create an organization over HTTP (403
 * otherwise), judged by the user's own permissions (users.permissions ∪ granted − denied), and
 * whether the per-user limits apply: a superadmin (`*`) is an operator, unlimited like
 * `gatehouse org create`. The user is read within the request's `deadline`.
 */
export async function admitCreator(db: Executor, rules: ResolvedOrganizationCreation, userId: number, deadline: RequestDeadline): Promise<{ limited: boolean }> {
  if (rules.allowed === 'nobody') throw new AccessDeniedError('Organizations are created by the service’s operators only.');
  const user = await findUserById(db, userId, deadline);
  const { permissions, ability } = compiledPermissions({ role: user?.permissions ?? [], granted: user?.granted_permissions, denied: user?.denied_permissions });
  if (rules.allowed === 'permission' && !abilityPermits(ability, rules.permission)) {
    throw new AccessDeniedError('You do not have permission to create organizations.', rules.permission);
  }
  return { limited: !permissions.includes(WILDCARD) };
}

/**
 * The per-user limits, checked in the creation's transaction before its rows are written: one more
 * creation in the user's hourly window (429 with its wait when full), and at most maxOwned
 * organizations owned with the new one (403). Counting the window locks the user's counter row
 * until the transaction ends, so concurrent creations of one user are checked one after the
 * other, each seeing what the ones before committed; a refused or failed creation counts nothing.
 */
export function creationLimits(rules: ResolvedOrganizationCreation, userId: number, ownerRoleId: number): (trx: TenantTransaction) => Promise<void> {
  const key = creationCounterKey(userId);
  return async (trx) => {
    const [hour] = await countHits(trx, [{ key, windowSeconds: HOUR_SECONDS, maxAttempts: rules.perHour }]);
    if (hour!.refused) throw new TooManyAttemptsError('organizations created', hour!.retryAfter);
    if ((await countOrganizationsWithRole(trx, userId, ownerRoleId)) >= rules.maxOwned) throw new OwnedOrganizationsLimitError(rules.maxOwned);
  };
}
