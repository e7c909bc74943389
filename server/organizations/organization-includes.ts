import { authorizeIncludes, parseIncludeParam, type GatehouseAbility } from '@gatehouse/engine';
import { listMembers } from '../db/repositories/memberships.js';
import { listOrganizationRoles } from '../db/repositories/roles.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import type { CurrentOrganization } from '../http/state.js';

// Relation name -> the resource slug whose index permission the include needs.
const RELATIONS: Readonly<Record<string, string>> = { users: 'users', roles: 'roles' };

/** Parses and authorizes `include=`: 400 for an unknown relation, 403 without `{slug}.index`. */
export function organizationIncludes(include: string | undefined, ability: GatehouseAbility): string[] {
  const includes = parseIncludeParam(include ?? '');
  authorizeIncludes({
    ability,
    rootSlug: 'organizations',
    includes,
    relationSlug: (owner, relation) => (owner === 'organizations' && Object.hasOwn(RELATIONS, relation) ? RELATIONS[relation] : undefined),
  });
  return includes;
}

/** Members of the request's group carry their role as `pivot.role_id`. */
export async function loadIncludes(trx: TenantTransaction, organization: CurrentOrganization, routeGroup: string, includes: readonly string[]) {
  const loaded: Record<string, unknown> = {};
  if (includes.includes('users')) {
    const members = await listMembers(trx, organization.id, routeGroup);
    loaded.users = members.map((member) => ({ id: member.id, name: member.name, email: member.email, pivot: { role_id: member.role_id } }));
  }
  if (includes.includes('roles')) loaded.roles = await listOrganizationRoles(trx, organization.id);
  return loaded;
}
