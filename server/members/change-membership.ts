import { changedValues } from '../audit/record-audit.js';
import { appendAuditLog } from '../db/repositories/audit-logs.js';
import { findMemberDetails, removeMembership, updateMembership, type MemberDetails, type MembershipChanges, type MembershipKey } from '../db/repositories/members.js';
import { addMembership } from '../db/repositories/memberships.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { membershipFacts } from './serialize-member.js';

/**
 * Applies checked changes to a membership and writes what changed to the audit trail, in the
 * caller's tenant transaction. `actorId`: the user making the change; null for the operator's CLI.
 */
export async function changeMembership(
  trx: TenantTransaction,
  key: MembershipKey,
  member: MemberDetails,
  changes: MembershipChanges,
  actorId: number | null,
): Promise<MemberDetails> {
  await updateMembership(trx, key, member.id, changes);
  const updated = (await findMemberDetails(trx, key, member.id)) ?? member;
  const { oldValues, newValues } = changedValues(membershipFacts(member), membershipFacts(updated));
  if (Object.keys(newValues).length > 0) {
    await appendAuditLog(trx, { organizationId: key.organizationId, model: 'memberships', recordId: member.id, action: 'updated', oldValues, newValues, userId: actorId });
  }
  return updated;
}

/** Makes the user a member with the role, audited like changeMembership; null when it already is one. */
export async function addMember(trx: TenantTransaction, key: MembershipKey, userId: number, roleId: number, actorId: number | null): Promise<MemberDetails | null> {
  if (await findMemberDetails(trx, key, userId)) return null;
  await addMembership(trx, { userId, organizationId: key.organizationId, roleId, routeGroup: key.routeGroup });
  // Written just now, in this transaction.
  const member = (await findMemberDetails(trx, key, userId))!;
  await appendAuditLog(trx, { organizationId: key.organizationId, model: 'memberships', recordId: userId, action: 'created', oldValues: null, newValues: membershipFacts(member), userId: actorId });
  return member;
}

/** Ends the membership (the user stays), audited like changeMembership. */
export async function endMembership(trx: TenantTransaction, key: MembershipKey, member: MemberDetails, actorId: number | null): Promise<void> {
  await removeMembership(trx, key, member.id);
  await appendAuditLog(trx, { organizationId: key.organizationId, model: 'memberships', recordId: member.id, action: 'deleted', oldValues: membershipFacts(member), newValues: null, userId: actorId });
}
