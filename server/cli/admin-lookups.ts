import type { AdministrationTransaction } from '../db/transactions/administration-transaction.js';
import type { Executor } from '../db/repositories/executor.js';
import { findOrganizationBySlug, type OrganizationRecord } from '../db/repositories/organizations.js';
import { findRoleBySlug, type RoleRecord } from '../db/repositories/roles.js';
import { findUserByEmail, type UserRecord } from '../db/repositories/users.js';
import { UnknownOrganizationError } from '../db/logins/unknown-organization-error.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { UnknownRecordError } from './unknown-record-error.js';

export async function requireUser(db: Executor, email: string): Promise<UserRecord> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UnknownRecordError('user', 'email', email);
  return user;
}

export async function requireRole(db: Executor, slug: string): Promise<RoleRecord> {
  const role = await findRoleBySlug(db, slug);
  if (!role) throw new UnknownRecordError('role', 'slug', slug);
  return role;
}

/** The organization `slug`, and the admin transaction in its tenant context from now on. */
export async function enterOrganization(admin: AdministrationTransaction, slug: string): Promise<{ organization: OrganizationRecord; trx: TenantTransaction }> {
  const organization = await findOrganizationBySlug(await admin.tenant({ organizationId: null, userId: null }), slug);
  if (!organization) throw new UnknownOrganizationError(slug);
  return { organization, trx: await admin.tenant({ organizationId: organization.id, userId: null }) };
}
