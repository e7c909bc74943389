import { findMemberDetails, type MembershipKey } from '../db/repositories/members.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { findRolePermissions } from '../db/repositories/roles.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { AuthUser, GatehouseContext, TenantMemberState } from '../http/state.js';
import { membershipKey } from '../members/find-member.js';
import { assertCan } from '../permissions/authorize.js';

/** The member whose request is explained, with the lists their permissions come from. */
export interface ExplainedMember {
  readonly user: AuthUser;
  readonly role: string;
  readonly sources: { readonly role: string[]; readonly granted: string[]; readonly denied: string[] };
  readonly self: boolean;
}

/**
 * The caller, or another member of the organization for a caller holding `decisions.explain`
 * (403 before anything is looked up, so the answer tells a non-holder nothing about who is a
 * member; a non-member is then as absent as a missing user, 404).
 */
export async function explainedMember(ctx: GatehouseContext<TenantMemberState>, userId: number | undefined): Promise<ExplainedMember> {
  const { user } = ctx.state.auth;
  if (userId === undefined || userId === user.id) {
    const membership = ctx.state.membership;
    return {
      user,
      role: membership.roleSlug,
      sources: { role: membership.rolePermissions, granted: membership.granted, denied: membership.denied },
      self: true,
    };
  }
  assertCan(ctx, 'explain', 'decisions');
  const member = await memberOf(ctx.state.trx, membershipKey(ctx), userId);
  if (!member) throw new NotFoundError('Member not found.');
  return member;
}

/** Another member of the organization and route group, as an operator or an explainer sees them; undefined for a non-member. */
export async function memberOf(trx: TenantTransaction, key: MembershipKey, userId: number): Promise<ExplainedMember | undefined> {
  const member = await findMemberDetails(trx, key, userId);
  if (!member) return undefined;
  const role = (await findRolePermissions(trx, key.organizationId, member.role_id))?.permissions ?? [];
  return {
    user: { id: member.id, name: member.name, email: member.email },
    role: member.role_slug,
    sources: { role, granted: member.granted_permissions, denied: member.denied_permissions },
    self: false,
  };
}
