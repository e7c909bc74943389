import { isStoredInteger } from '../models/integer-range.js';
import { findRole, findRolePermissions, type RoleRecord } from '../db/repositories/roles.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { required, type GatehouseContext, type GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { rolePermissionsSchema } from '../members/member-schemas.js';
import { assertHoldsChanges } from '../members/membership-rules.js';
import { assertCan } from '../permissions/authorize.js';
import type { Services } from '../services.js';
import { assertNotOwnerRole, replaceRolePermissions } from './replace-role-permissions.js';

const ID = /^[1-9][0-9]{0,9}$/;

/** The permission to act on roles, then the role `:id`: permission (403) before record (404), as for members. */
async function findRoleFor(ctx: GatehouseContext, action: 'show' | 'update'): Promise<RoleRecord> {
  assertCan(ctx, action, 'roles');
  const raw = ctx.params.id ?? '';
  const id = ID.test(raw) ? Number(raw) : NaN;
  const role = isStoredInteger(id) ? await findRole(required(ctx, 'trx'), id) : undefined;
  if (!role) throw new NotFoundError('Role not found.');
  return role;
}

async function permissionsOf(ctx: GatehouseContext, role: RoleRecord): Promise<string[]> {
  return (await findRolePermissions(required(ctx, 'trx'), required(ctx, 'organization').id, role.id))?.permissions ?? [];
}

/** `GET {t}/roles/{id}/permissions`: the role's permissions in this organization. */
export function showRolePermissions(): GatehouseMiddleware {
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
export function updateRolePermissions(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const role = await findRoleFor(ctx, 'update');
    const { permissions } = validate(rolePermissionsSchema, ctx.request.body);
    assertNotOwnerRole(role, services.config.ownerRole);
    const before = await permissionsOf(ctx, role);
    assertHoldsChanges(ctx, before, permissions);
    await replaceRolePermissions(required(ctx, 'trx'), required(ctx, 'organization').id, role, { before, after: permissions }, required(ctx, 'auth').user.id);
    ctx.body = { role, permissions };
  };
}
