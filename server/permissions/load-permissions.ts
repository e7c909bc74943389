import { conditionContext, EMPTY_CATALOG, type PermissionSources } from '@gatehouse/engine';
import type { CompiledQuery } from 'kysely';
import { findUserById, userById } from '../db/repositories/users.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import type { Services } from '../services.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Authorization, DataState, Membership, Stage } from '../http/state.js';
import { compiledPermissions, type CompiledPermissions } from './compiled-permissions.js';

interface Sources extends PermissionSources {
  role: string[];
  roleSlug: string | null;
}

const NONE: Sources = { role: [], roleSlug: null };

/** What a request outside tenancy (or without a member) is allowed by: the user's own lists. */
async function userSources({ auth, trx }: Facts): Promise<Sources> {
  if (!auth) return NONE;
  const user = await findUserById(trx, auth.user.id);
  if (!user) return NONE;
  return { role: user.permissions, roleSlug: null, granted: user.granted_permissions, denied: user.denied_permissions };
}

/** What the permissions are loaded from: the caller and the transaction the stages before opened. */
type Facts = Pick<DataState, 'auth' | 'organization' | 'membership' | 'trx' | 'routeGroup'>;

/**
 * What userSources reads for a member of `group` outside tenancy, for the request's opening to
 * send ahead; the same statement, so its answer is the one userSources reads.
 */
export function permissionReads(db: TenantTransaction, { userId, group }: { userId: number; group: RouteGroup }): CompiledQuery[] {
  return group.tenancy === 'none' ? [userById(db, userId)] : [];
}

/** A member's lists in the organization, as the request's opening read them. */
const membershipSources = ({ rolePermissions, granted, denied }: Membership): Omit<Sources, 'roleSlug'> => ({ role: rolePermissions, granted, denied });

/** `sources` compiled for the request's caller, with the record conditions of the application's models. */
function callerPermissions(services: Pick<Services, 'config'>, sources: PermissionSources, { auth, organization, routeGroup }: Pick<Facts, 'auth' | 'organization' | 'routeGroup'>): CompiledPermissions {
  const catalog = services.config.models?.conditions ?? EMPTY_CATALOG;
  const context = conditionContext({ user: auth?.user ?? null, organization: organization ?? null, routeGroup: routeGroup.name });
  return compiledPermissions(sources, { catalog, context });
}

/**
 * A member's lists compiled for its request, by the membership its opening read (one object per
 * request): the opening compiles them already when they hold record conditions, which its
 * statements add, and the stage that loads the permissions then finds them here.
 */
const compiledForMembership = new WeakMap<Membership, CompiledPermissions>();

/** A member's permissions in the organization: its role's layered with the membership's granted and denied lists. */
export function memberPermissions(services: Pick<Services, 'config'>, { membership, ...facts }: Pick<Facts, 'auth' | 'organization' | 'routeGroup'> & { membership: Membership }): CompiledPermissions {
  let compiled = compiledForMembership.get(membership);
  if (compiled === undefined) compiledForMembership.set(membership, (compiled = callerPermissions(services, membershipSources(membership), facts)));
  return compiled;
}

/**
 * Loads the caller's permissions, compiled with the record conditions of `registry`'s models.
 * Tenant requests layer the member's role permissions in the organization with the membership's
 * granted and denied lists; non-tenant requests read the user's own lists. Only stored facts
 * count: nothing in the request can name a role.
 */
export function loadPermissions(services: Pick<Services, 'config'>): Stage<Facts, { authorization: Authorization }> {
  return async (ctx, next) => {
    const { auth, organization, membership } = ctx.state;
    if (auth && organization && membership) return next({ authorization: { role: membership.roleSlug, ...memberPermissions(services, { auth, organization, routeGroup: ctx.state.routeGroup, membership }) } });
    const { roleSlug, ...sources } = await userSources(ctx.state);
    await next({ authorization: { role: roleSlug, ...callerPermissions(services, sources, ctx.state) } });
  };
}
