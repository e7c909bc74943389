import { isStoredInteger } from '../models/integer-range.js';
import { findRole, findRolePermissions, type RoleRecord } from '../db/repositories/roles.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { GatehouseContext, GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { rolePermissionsSchema } from '../members/member-schemas.js';
import { assertHoldsChanges } from '../members/membership-rules.js';
import { assertCan } from '../permissions/authorize.js';
import type { Services } from '../services.js';
import { assertNotOwnerRole, replaceRolePermissions } from './replace-role-permissions.js';

const ID = /^[1-9][0-9]{0,9}$/;

/** The permission to act on roles, then the role `:id`: permission (403) before record (404), as for members. */
async function findRoleFor(ctx: GatehouseContext<TenantMemberState>, action: 'show' | 'update'): Promise<RoleRecord> {
  assertCan(ctx, action, 'roles');
  const raw = ctx.params.id ?? '';
  const id = ID.test(raw) ? Number(raw) : NaN;
  const role = isStoredInteger(id) ? await findRole(ctx.state.trx, id) : undefined;
  if (!role) throw new NotFoundError('Role not found.');
  return role;
}

async function permissionsOf(ctx: GatehouseContext<TenantMemberState>, role: RoleRecord): Promise<string[]> {
  return (await findRolePermissions(ctx.state.trx, ctx.state.organization.id, role.id))?.permissions ?? [];
}

/** `GET {t}/roles/{id}/permissions`: the role's permissions in this organization. */
export function showRolePermissions(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const role = await findRoleFor(ctx, 'show');
    ctx.body = { role, permissions: await permissionsOf(ctx, role) };
  };
}

/**
 * `PUT {t}/roles/{id}/permissions`: replaces the role's list in this organization. The caller
 * must hold every permission added or taken away; the owner role keeps its permissions, so an
 * organization can never lose its owners' reach. Effective on its members' next request.
 */
export function updateRolePermissions(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const role = await findRoleFor(ctx, 'update');
    const { permissions } = validate(rolePermissionsSchema, ctx.request.body);
    assertNotOwnerRole(role, services.config.ownerRole);
    const before = await permissionsOf(ctx, role);
    assertHoldsChanges(ctx, before, permissions);
    await replaceRolePermissions(ctx.state.trx, ctx.state.organization.id, role, { before, after: permissions }, ctx.state.auth.user.id);
    ctx.body = { role, permissions };
  };
}
