import type { OrganizationRecord } from '../db/repositories/organizations.js';

export function serializeOrganization(organization: OrganizationRecord) {
  return { id: organization.id, name: organization.name, slug: organization.slug };
}
