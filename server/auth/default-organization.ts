import { listUserOrganizations } from '../db/repositories/memberships.js';
import type { OrganizationRecord } from '../db/repositories/organizations.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Services } from '../services.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';

/**
 * The organization a login lands in. Path tenancy: the user's oldest membership in the group.
 * Subdomain tenancy: the host's organization, which the user must belong to (404 otherwise,
 * as on every other request there). No tenancy: none.
 */
export async function defaultOrganization(
  services: Services,
  userId: number,
  group: RouteGroup,
  hostOrganization: string | null | undefined,
  deadline?: RequestDeadline,
): Promise<OrganizationRecord | null> {
  if (group.tenancy === 'none') return null;
  const organizations = await listUserOrganizations(services.db, userId, group.name, deadline);
  if (group.tenancy === 'path') return organizations[0] ?? null;
  const hosted = organizations.find((organization) => organization.slug === hostOrganization);
  if (!hosted) throw new OrganizationNotFoundError();
  return hosted;
}
