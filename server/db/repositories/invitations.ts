import { NoResultError, sql, type CompiledQuery } from 'kysely';
import { queueMessageFor, type MailMessage } from './mail-queue.js';
import { runWrite, type LastWrite } from '../transactions/read-ahead.js';
import type { TenantTransaction } from '../transactions/tenant-transaction.js';
import { CONTEXT_ORGANIZATION } from './context-organization.js';

export interface InvitationRecord {
  id: number;
  organization_id: number;
  email: string;
  role_id: number;
  route_group: string | null;
  status: 'pending' | 'accepted' | 'cancelled';
  invited_by: number | null;
  expires_at: Date;
  accepted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Pending splits into live and expired by the clock; the table stores only the former three. */
export type InvitationStatus = 'pending' | 'expired' | 'accepted' | 'cancelled';

const columns = [
  'id',
  'organization_id',
  'email',
  'role_id',
  'route_group',
  'status',
  'invited_by',
  'expires_at',
  'accepted_at',
  'created_at',
  'updated_at',
] as const;

export function listInvitations(trx: TenantTransaction, organizationId: number, status: InvitationStatus | null): Promise<InvitationRecord[]> {
  let query = trx.selectFrom('invitations').select(columns).where('organization_id', '=', organizationId);
  if (status === 'pending') query = query.where('status', '=', 'pending').where('expires_at', '>', new Date());
  else if (status === 'expired') query = query.where('status', '=', 'pending').where('expires_at', '<=', new Date());
  else if (status) query = query.where('status', '=', status);
  return query.orderBy('id').execute();
}

/** The invitation `id` of the tenant context's organization: one statement, which a request sends with its opening. */
export function invitationInContext(trx: TenantTransaction, id: number) {
  return trx.selectFrom('invitations').select(columns).where('organization_id', '=', CONTEXT_ORGANIZATION).where('id', '=', id);
}

/** Visible only when the transaction carries this token hash (or the organization's context). */
export function findInvitationByTokenHash(trx: TenantTransaction, tokenHash: string): Promise<InvitationRecord | undefined> {
  return trx.selectFrom('invitations').select(columns).where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

/** The pending invitation for the email in the tenant context's organization, locked: one statement, which a request sends with its opening. */
export function pendingInvitationForEmail(trx: TenantTransaction, email: string) {
  return trx
    .selectFrom('invitations')
    .select(columns)
    .where('organization_id', '=', CONTEXT_ORGANIZATION)
    .where('status', '=', 'pending')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .forUpdate();
}

export interface NewInvitation {
  organizationId: number;
  email: string;
  roleId: number;
  routeGroup: string;
  tokenHash: string;
  invitedBy: number;
  expiresAt: Date;
}

/**
 * Null when another pending invitation for the email won the race (one pending per email). Every
 * organization's invitations draw their ids from one sequence, and an insert draws one before it
 * meets a conflict, so the row is written only where no pending invitation has been committed
 * since the request read (a racing one, which the email's throttle counter held it behind): a
 * refused invitation draws no id.
 */
export async function createInvitation(trx: TenantTransaction, invitation: NewInvitation): Promise<InvitationRecord | null> {
  const pending = trx
    .selectFrom('invitations')
    .select('id')
    .where('organization_id', '=', invitation.organizationId)
    .where('status', '=', 'pending')
    .where(sql<string>`lower(email)`, '=', invitation.email.toLowerCase());
  const row = await trx
    .insertInto('invitations')
    .columns(['organization_id', 'email', 'role_id', 'route_group', 'token_hash', 'invited_by', 'expires_at'])
    .expression(
      sql`SELECT ${invitation.organizationId}::integer, ${invitation.email}::text, ${invitation.roleId}::integer, ${invitation.routeGroup}::text,
        ${invitation.tokenHash}::text, ${invitation.invitedBy}::integer, ${invitation.expiresAt}::timestamptz
      WHERE NOT EXISTS (${pending})`,
    )
    // The partial index's predicate as a literal: a prepared statement's plan cannot prove that
    // a parameter matches it, and the conflict target would find no index.
    .onConflict((conflict) => conflict.expression(sql`organization_id, lower(email)`).where('status', '=', sql.lit('pending')).doNothing())
    .returning(columns)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * A new token and expiry for the invitation, and its mail queued only if the row was renewed: one
 * statement, answering the renewed invitation.
 */
export function renewInvitation(trx: TenantTransaction, id: number, renewal: { tokenHash: string; expiresAt: Date }, mail: MailMessage): CompiledQuery<InvitationRecord> {
  const renewed = trx.updateTable('invitations').set({ token_hash: renewal.tokenHash, expires_at: renewal.expiresAt }).where('id', '=', id).returning(columns);
  return sql<InvitationRecord>`WITH renewed AS (${renewed}), queued AS (${queueMessageFor('renewed', mail)}) SELECT * FROM renewed`.compile(trx);
}

/** The permissions of the invitation `id`'s role in the tenant context's organization (no row: none configured). */
export function invitationRolePermissions(trx: TenantTransaction, id: number) {
  return trx
    .selectFrom('invitations')
    .innerJoin('org_role_permissions', (join) =>
      join.onRef('org_role_permissions.role_id', '=', 'invitations.role_id').onRef('org_role_permissions.organization_id', '=', 'invitations.organization_id'),
    )
    .select('org_role_permissions.permissions')
    .where('invitations.organization_id', '=', CONTEXT_ORGANIZATION)
    .where('invitations.id', '=', id);
}

/** `last`: the transaction's last statement, its COMMIT sent with it (LastWrite). */
export async function setInvitationStatus(trx: TenantTransaction, id: number, status: 'accepted' | 'cancelled', options: LastWrite = {}): Promise<InvitationRecord> {
  const update = trx
    .updateTable('invitations')
    .set({ status, accepted_at: status === 'accepted' ? new Date() : null })
    .where('id', '=', id)
    .returning(columns);
  const [row] = await runWrite<InvitationRecord>(trx, update.compile(), options);
  if (!row) throw new NoResultError(update.toOperationNode());
  return row;
}
