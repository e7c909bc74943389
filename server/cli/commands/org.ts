import type { Command } from 'commander';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { configOption, groupOption } from '../common-options.js';

// Loaded when a subcommand runs: the definitions below, all that `--help` needs, load without it.
const implementation = async () => {
  const [auditLogs, organizations, changes, draft, serialize, app, lookups, admin] = await Promise.all([
    import('../../db/repositories/audit-logs.js'),
    import('../../db/repositories/organizations.js'),
    import('../../members/change-membership.js'),
    import('../../organizations/draft-organization.js'),
    import('../../organizations/serialize-organization.js'),
    import('../admin-app.js'),
    import('../admin-lookups.js'),
    import('../run-admin.js'),
  ]);
  return { ...auditLogs, ...organizations, ...changes, ...draft, ...serialize, ...app, ...lookups, ...admin };
};

interface CreateOptions {
  name: string;
  slug: string;
  owner?: string;
  group?: string;
  config?: string;
}

/**
 * `POST /organizations` for the operator: the same fields, reserved slugs and starting roles
 * (from the config), with an optional first owner instead of the caller.
 */
async function createOrganization(options: CreateOptions, command: Command): Promise<void> {
  if (options.group !== undefined && options.owner === undefined) command.error('error: --group goes with --owner');
  const { adminApp, membershipGroup, runAdmin, draftOrganization, requireUser, nextOrganizationId, insertOrganization, slugTakenError, appendAuditLog, serializeOrganization, addMember } =
    await implementation();
  const app = await adminApp(options.config);
  const routeGroup = options.owner === undefined ? null : membershipGroup(app, options.group);
  const { organization, owner } = await runAdmin(async (admin) => {
    const draft = await draftOrganization(admin.owner, app.settings, app.reservedSlugs, { name: options.name, slug: options.slug });
    const owner = options.owner === undefined ? null : await requireUser(admin.owner, options.owner);
    const id = await nextOrganizationId(admin.owner);
    const trx = await admin.tenant({ organizationId: id, userId: null });
    const organization = await insertOrganization(trx, id, { ...draft, owner: null });
    if (!organization) throw slugTakenError();
    await appendAuditLog(trx, { organizationId: id, model: 'organizations', recordId: id, action: 'created', oldValues: null, newValues: serializeOrganization(organization), userId: null });
    if (owner && routeGroup) await addMember(trx, { organizationId: id, routeGroup }, owner.id, draft.ownerRoleId, null);
    return { organization, owner };
  });
  console.log(`Created organization ${organization.slug} (${organization.name}, id ${organization.id}).`);
  if (owner) console.log(`${owner.email} is its ${app.settings.ownerRole} (route group ${routeGroup}).`);
}

async function list(): Promise<void> {
  const { runAdmin } = await implementation();
  const organizations = await runAdmin(async (admin) =>
    (await admin.tenant({ organizationId: null, userId: null })).selectFrom('organizations').select(['id', 'slug', 'name']).orderBy('id').execute(),
  );
  console.log(organizations.length === 0 ? 'No organizations.' : organizations.map((organization) => `${organization.slug} (${organization.name}, id ${organization.id})`).join('\n'));
}

/** Deletes the organization and everything it owns (members, invitations, its rows, its audit trail). */
async function remove(options: { org: string }): Promise<void> {
  const { runAdmin, enterOrganization } = await implementation();
  const organization = await runAdmin(async (admin) => {
    const { organization, trx } = await enterOrganization(admin, options.org);
    await trx.deleteFrom('organizations').where('id', '=', organization.id).execute();
    return organization;
  });
  console.log(`Removed organization ${organization.slug} (${organization.name}, id ${organization.id}) and everything it owned.`);
}

export const orgCommand: CliCommand = (program) => {
  const org = commandGroup(program, 'org', 'Create, list and remove organizations (tenants)');
  org.command('list').description('List every organization').action(list);
  org
    .command('remove')
    .description('Delete an organization and everything it owns (members, invitations, its rows, its audit trail)')
    .requiredOption('--org <slug>', 'the organization')
    .action(remove);
  org
    .command('create')
    .description('Create an organization with the starting roles of the config (organizationRoles; default owner: *)')
    .requiredOption('--name <name>', 'its display name')
    .requiredOption('--slug <slug>', 'its URL name: lower-case letters, digits and single hyphens; unique, not a reserved path')
    .option('--owner <email>', 'an existing user to make its first owner (or add members later with `member add`)')
    .addOption(groupOption("the owner's"))
    .addOption(configOption())
    .action(createOrganization);
};
