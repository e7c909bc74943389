import type { Command } from 'commander';
import { ValidationError } from '../../errors/validation-error.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';
import { flagOrArgument } from '../flag-or-argument.js';

// Loaded when a subcommand runs: the definitions below, all that `--help` needs, load without it.
const implementation = async () => {
  const [roles, validation, replace, schemas, rules, app, lookups, permissionList, admin] = await Promise.all([
    import('../../db/repositories/roles.js'),
    import('../../http/validate.js'),
    import('../../roles/replace-role-permissions.js'),
    import('../../roles/role-schemas.js'),
    import('../../members/membership-rules.js'),
    import('../admin-app.js'),
    import('../admin-lookups.js'),
    import('../permission-list.js'),
    import('../run-admin.js'),
  ]);
  return { ...roles, ...validation, ...replace, ...schemas, ...rules, ...app, ...lookups, ...permissionList, ...admin };
};

// `content-editor` reads as `Content editor` when no --name is given.
const nameOf = (slug: string) => slug.charAt(0).toUpperCase() + slug.slice(1).replace(/-/g, ' ');

interface CreateOptions {
  name?: string;
  org?: string;
  permissions?: string;
  config?: string;
}

/**
 * Roles are shared by all organizations; what a role may do is set per organization. With
 * --org the role gets its permissions there at once (none when --permissions is left out).
 */
async function create(slug: string, options: CreateOptions, command: Command): Promise<void> {
  if (options.permissions !== undefined && options.org === undefined) command.error('error: --permissions goes with --org');
  const { validate, newRoleSchema, parsePermissionList, adminApp, runAdmin, createRole, enterOrganization, replaceRolePermissions, listed } = await implementation();
  const input = validate(newRoleSchema, { slug, name: options.name ?? nameOf(slug) });
  const permissions = parsePermissionList(options.permissions, 'permissions');
  if (options.permissions !== undefined) (await adminApp(options.config)).assertConditions({ permissions });
  const { role, organization } = await runAdmin(async (admin) => {
    const role = await createRole(admin.owner, input);
    if (!role) throw ValidationError.field('slug', `The role ${input.slug} already exists.`);
    if (options.org === undefined) return { role, organization: null };
    const { organization, trx } = await enterOrganization(admin, options.org);
    await replaceRolePermissions(trx, organization.id, role, { before: [], after: permissions }, null);
    return { role, organization };
  });
  console.log(`Created role ${role.slug} (${role.name}, id ${role.id}).`);
  if (organization) console.log(`Its permissions in ${organization.slug}: ${listed(permissions)}.`);
}

interface PermissionsOptions {
  org?: string;
  role?: string;
  grant?: string;
  revoke?: string;
  config?: string;
}

/** Adds and removes entries of the role's list in one organization; without either, shows it. */
async function permissions(orgArgument: string | undefined, roleArgument: string | undefined, options: PermissionsOptions, command: Command): Promise<void> {
  const { parsePermissionList, assertDisjoint, adminApp, runAdmin, requireRole, enterOrganization, findRolePermissions, without, union, assertNotOwnerRole, replaceRolePermissions, listed } =
    await implementation();
  const slug = flagOrArgument(command, '--org <slug>', options.org, orgArgument);
  const roleSlug = flagOrArgument(command, '--role <role-slug>', options.role, roleArgument);
  const grant = parsePermissionList(options.grant, 'grant');
  const revoke = parsePermissionList(options.revoke, 'revoke');
  assertDisjoint({ grant, revoke });
  const { settings, assertConditions } = await adminApp(options.config);
  assertConditions({ grant });
  const summary = await runAdmin(async (admin) => {
    const role = await requireRole(admin.owner, roleSlug);
    const { organization, trx } = await enterOrganization(admin, slug);
    const before = (await findRolePermissions(trx, organization.id, role.id))?.permissions ?? [];
    const after = without(union(before, grant), revoke);
    if (grant.length + revoke.length > 0) {
      assertNotOwnerRole(role, settings.ownerRole);
      await replaceRolePermissions(trx, organization.id, role, { before, after }, null);
    }
    return `Permissions of ${role.slug} in ${organization.slug}: ${listed(after)}.`;
  });
  console.log(summary);
}

export const roleCommand: CliCommand = (program) => {
  const role = commandGroup(program, 'role', 'Manage roles and what they may do in each organization');
  role
    .command('create')
    .description('Create a role (shared by every organization; its permissions are set per organization)')
    .argument('<slug>', 'its name in `member add --role` and in tokens: lower-case letters, digits, hyphens')
    .option('--name <name>', 'its display name (default: from the slug, content-editor: Content editor)')
    .option('--org <slug>', 'an organization to give it permissions in at once')
    .option('--permissions <list>', "its permissions there, comma- or space-separated (e.g. 'posts.*, comments.index, posts.update:own')")
    .addOption(configOption())
    .action(create);
  role
    .command('permissions')
    .description("Change a role's permissions in one organization; with no option, show them")
    .usage('--org <slug> --role <role-slug> [options]')
    .argument('[org]', 'the organization slug (same as --org)')
    .argument('[role]', 'the role slug (same as --role)')
    .option('--org <slug>', 'the organization')
    .option('--role <role-slug>', 'the role')
    .option('--grant <list>', 'permissions to add to the list, comma- or space-separated')
    .option('--revoke <list>', 'entries to take off the list (exactly as listed: revoking posts.delete leaves posts.*)')
    .addOption(configOption())
    .action(permissions);
};
