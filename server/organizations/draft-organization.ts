import type { ResolvedConfig } from '../config/server-config.js';
import type { Executor } from '../db/repositories/executor.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { findRolesBySlug } from '../db/repositories/roles.js';
import { ValidationError } from '../errors/validation-error.js';
import { validate } from '../http/validate.js';
import { createOrganizationSchema } from './organization-schemas.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

/** The settings a new organization is made with. */
export type OrganizationSettings = Pick<ResolvedConfig, 'ownerRole' | 'organizationRoles'>;

/** A checked new organization, ready for the repository's insertOrganization. */
export interface OrganizationDraft {
  name: string;
  slug: string;
  ownerRoleId: number;
  /** Permissions per role id the organization starts with. */
  rolePermissions: Map<number, readonly string[]>;
}

/** Ids of the roles a new organization starts with, by slug, and the slugs the roles table lacks. */
export async function findStartingRoles(
  db: Executor,
  { organizationRoles }: OrganizationSettings,
  deadline?: RequestDeadline,
): Promise<{ idOf: Map<string, number>; missing: string[] }> {
  const slugs = Object.keys(organizationRoles);
  const idOf = new Map((await findRolesBySlug(db, slugs, deadline)).map((role) => [role.slug, role.id]));
  return { idOf, missing: slugs.filter((slug) => !idOf.has(slug)) };
}

/** Role ids for the configured role slugs; roles are shared data, so a missing one is a setup fault. */
async function startingRoles(db: Executor, settings: OrganizationSettings, deadline?: RequestDeadline): Promise<Pick<OrganizationDraft, 'ownerRoleId' | 'rolePermissions'>> {
  const { idOf, missing } = await findStartingRoles(db, settings, deadline);
  if (missing.length > 0) {
    throw new Error(`Roles ${missing.join(', ')} are configured for new organizations but missing from the roles table (${gatehouseCommand('role create')}).`);
  }
  return {
    ownerRoleId: idOf.get(settings.ownerRole)!,
    rolePermissions: new Map(Object.entries(settings.organizationRoles).map(([slug, permissions]) => [idOf.get(slug)!, permissions])),
  };
}

/**
 * The rules of a new organization, for `POST {group}/organizations` and `gatehouse org create`
 * alike: its fields (422), a slug the service's own paths do not shadow, the starting roles.
 * `deadline`: the request's, which bounds the read of the roles.
 */
export async function draftOrganization(
  db: Executor,
  settings: OrganizationSettings,
  reserved: ReadonlySet<string>,
  input: unknown,
  deadline?: RequestDeadline,
): Promise<OrganizationDraft> {
  const { name, slug } = validate(createOrganizationSchema, input);
  if (reserved.has(slug)) throw ValidationError.field('slug', 'The slug is reserved.');
  return { name, slug, ...(await startingRoles(db, settings, deadline)) };
}

/** insertOrganization found the slug taken. */
export const slugTakenError = () => ValidationError.field('slug', 'The slug has already been taken.');
