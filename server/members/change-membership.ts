import { sql } from 'kysely';
import { nodeJson, writeWithAuditRow } from '../audit/audited-write.js';
import { appendAuditLog } from '../db/repositories/audit-logs.js';
import { findMemberDetails, membershipRemoval, membershipUpdate, type MemberDetails, type MembershipChanges, type MembershipKey } from '../db/repositories/members.js';
import { addMembership } from '../db/repositories/memberships.js';
import { runWrite, type LastWrite } from '../db/transactions/read-ahead.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { MEMBERSHIP_FACTS, membershipFacts } from './serialize-member.js';

/** The written membership's facts as JSON, as membershipFacts writes them from Node. */
const writtenFacts = sql`jsonb_build_object(${sql.join(MEMBERSHIP_FACTS.map((fact) => sql`${sql.lit(fact)}, written.${sql.ref(fact)}`))})`;

/** The member as `{t}/members` shows it, from the membership just written. */
const writtenMember = sql`SELECT users.id, users.name, users.email, written.role_id, roles.slug AS role_slug, roles.name AS role_name, written.granted_permissions, written.denied_permissions
  FROM written JOIN users ON users.id = written.user_id JOIN roles ON roles.id = written.role_id`;

/**
 * Applies checked changes to a membership and writes what changed to the audit trail, one
 * statement, in the caller's tenant transaction (nothing changed: no audit row). `actorId`: the
 * user making the change; null for the operator's CLI. `last`: see LastWrite.
 */
export async function changeMembership(
  trx: TenantTransaction,
  key: MembershipKey,
  member: MemberDetails,
  changes: MembershipChanges,
  actorId: number | null,
  options: LastWrite = {},
): Promise<MemberDetails> {
  if (Object.keys(changes).length === 0) return member;
  const statement = writeWithAuditRow(
    trx,
    membershipUpdate(trx, key, member.id, changes),
    {
      organizationId: sql`written.organization_id`,
      model: 'memberships',
      recordId: sql`written.user_id::text`,
      action: 'updated',
      values: [sql`changes.old_values`, sql`changes.new_values`],
      from: sql`written CROSS JOIN LATERAL gatehouse_audit_changes(${nodeJson(membershipFacts(member))}::jsonb, ${writtenFacts}) AS changes`,
      where: sql`changes.new_values <> '{}'::jsonb`,
    },
    actorId,
    writtenMember,
  );
  const [updated] = await runWrite<MemberDetails>(trx, statement, options);
  return updated ?? member;
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
export async function endMembership(trx: TenantTransaction, key: MembershipKey, member: MemberDetails, actorId: number | null, options: LastWrite = {}): Promise<void> {
  const statement = writeWithAuditRow(
    trx,
    membershipRemoval(trx, key, member.id),
    {
      organizationId: sql`written.organization_id`,
      model: 'memberships',
      recordId: sql`written.user_id::text`,
      action: 'deleted',
      values: [sql`${nodeJson(membershipFacts(member))}::jsonb`, sql`NULL::jsonb`],
      from: sql`written`,
    },
    actorId,
  );
  await runWrite(trx, statement, options);
}
