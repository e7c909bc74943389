import type { PermissionSources } from '@gatehouse/engine';
import { findUserById, userById } from '../db/repositories/users.js';
import type { CompiledQuery } from 'kysely';
import type { TenantTransaction } from '../db/with-tenant.js';
import type { RouteGroup } from '../models/route-group.js';
import { required, type GatehouseContext, type GatehouseMiddleware } from '../http/state.js';
import { compiledPermissions } from './compiled-permissions.js';

interface Sources extends PermissionSources {
  role: string[];
  roleSlug: string | null;
}

const NONE: Sources = { role: [], roleSlug: null };

/**
 * Tenant requests layer the member's role permissions in the organization with the membership's
 * granted and denied lists; non-tenant requests read the user's own lists. Only stored facts
 * count: nothing in the request can name a role.
 */
async function sourcesOf(ctx: GatehouseContext, trx: TenantTransaction): Promise<Sources> {
  const { auth, organization, membership } = ctx.state;
  if (!auth) return NONE;
  if (organization && membership) {
    return { role: membership.rolePermissions, roleSlug: membership.roleSlug, granted: membership.granted, denied: membership.denied };
  }
  const user = await findUserById(trx, auth.user.id);
  if (!user) return NONE;
  return { role: user.permissions, roleSlug: null, granted: user.granted_permissions, denied: user.denied_permissions };
}

/**
 * What sourcesOf reads for a member of `group` (its user's own lists outside tenancy), for the
 * request's opening to send ahead; the same statement, so its answer is the one sourcesOf reads.
 */
export function permissionReads(db: TenantTransaction, { userId, group }: { userId: number; group: RouteGroup }): CompiledQuery[] {
  return group.tenancy === 'none' ? [userById(db, userId)] : [];
}

export function loadPermissions(): GatehouseMiddleware {
  return async (ctx, next) => {
    const { roleSlug, ...sources } = await sourcesOf(ctx, required(ctx, 'trx'));
    ctx.state.authorization = { role: roleSlug, ...compiledPermissions(sources) };
    await next();
  };
}
