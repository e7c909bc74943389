import { roleInContext, type RoleRecord } from '../db/repositories/roles.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { GatehouseContext, GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { pathId } from '../models/path-id.js';
import { rolePermissionsSchema } from '../members/member-schemas.js';
import { assertHoldsChanges } from '../members/membership-rules.js';
import { assertCan } from '../permissions/authorize.js';
import { assertDeclaredConditions, declaredConditions } from '../permissions/declared-conditions.js';
import type { Services } from '../services.js';
import { assertNotOwnerRole, replaceRolePermissions } from './replace-role-permissions.js';

/**
 * The permission to act on roles, then the role `:id` with its permissions in this organization
 * (none configured: none): permission (403) before record (404), as for members. One statement,
 * which travels with the request's opening (`role-reads.ts`).
 */
async function findRoleFor(ctx: GatehouseContext<TenantMemberState>, action: 'show' | 'update'): Promise<{ role: RoleRecord; permissions: string[] }> {
  assertCan(ctx, action, 'roles');
  const id = pathId(ctx.params.id);
  const found = id !== null ? await roleInContext(ctx.state.trx, { id }).executeTakeFirst() : undefined;
  if (!found) throw new NotFoundError('Role not found.');
  return { role: { id: found.id, name: found.name, slug: found.slug }, permissions: found.permissions ?? [] };
}

/** `GET {t}/roles/{id}/permissions`: the role's permissions in this organization. */
export function showRolePermissions(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    ctx.body = await findRoleFor(ctx, 'show');
  };
}

/**
 * `PUT {t}/roles/{id}/permissions`: replaces the role's list in this organization. The caller
 * must hold every permission added or taken away; the owner role keeps its permissions, so an
 * organization can never lose its owners' reach. Effective on its members' next request.
 */
export function updateRolePermissions(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const { role, permissions: before } = await findRoleFor(ctx, 'update');
    const { permissions } = validate(rolePermissionsSchema, ctx.request.body);
    assertDeclaredConditions(declaredConditions(services.config.models), { permissions });
    assertNotOwnerRole(role, services.config.ownerRole);
    assertHoldsChanges(ctx, before, permissions);
    await replaceRolePermissions(ctx.state.trx, ctx.state.organization.id, role, { before, after: permissions }, ctx.state.auth.user.id, { last: true });
    ctx.body = { role, permissions };
  };
}
