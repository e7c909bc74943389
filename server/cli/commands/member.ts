import type { Command } from 'commander';
import type { MemberDetails, MembershipKey } from '../../db/repositories/members.js';
import type { TenantTransaction } from '../../db/transactions/tenant-transaction.js';
import { AccessDeniedError } from '../../errors/access-denied-error.js';
import type { MembershipFate } from '../../members/last-owner-rule.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { groupOption, configOption } from '../common-options.js';
import { flagOrArgument } from '../flag-or-argument.js';
import { gatehouseCommand } from '../../errors/gatehouse-command.js';

// Loaded when a subcommand runs: the definitions below, all that `--help` needs, load without it.
const implementation = async () => {
  const [members, roles, changes, lastOwner, rules, app, lookups, permissionList, admin] = await Promise.all([
    import('../../db/repositories/members.js'),
    import('../../db/repositories/roles.js'),
    import('../../members/change-membership.js'),
    import('../../members/last-owner-rule.js'),
    import('../../members/membership-rules.js'),
    import('../admin-app.js'),
    import('../admin-lookups.js'),
    import('../permission-list.js'),
    import('../run-admin.js'),
  ]);
  return { ...members, ...roles, ...changes, ...lastOwner, ...rules, ...app, ...lookups, ...permissionList, ...admin };
};
type Implementation = Awaited<ReturnType<typeof implementation>>;

interface AddOptions {
  org: string;
  email: string;
  role: string;
  group?: string;
  config?: string;
}

/** Like accepting an invitation: an existing user, a role configured in the organization. */
async function add(options: AddOptions): Promise<void> {
  const { adminApp, membershipGroup, runAdmin, requireUser, requireRole, enterOrganization, listOrganizationRoles, addMember } = await implementation();
  const routeGroup = membershipGroup(await adminApp(options.config), options.group);
  const summary = await runAdmin(async (admin) => {
    const user = await requireUser(admin.owner, options.email);
    const role = await requireRole(admin.owner, options.role);
    const { organization, trx } = await enterOrganization(admin, options.org);
    if (!(await listOrganizationRoles(trx, organization.id)).some((configured) => configured.id === role.id)) {
      throw new Error(`Role ${role.slug} is not configured in ${organization.slug}: give it permissions there first (${gatehouseCommand(`role permissions ${organization.slug} ${role.slug} --grant <list>`)}).`);
    }
    const member = await addMember(trx, { organizationId: organization.id, routeGroup }, user.id, role.id, null);
    if (!member) throw new Error(`${user.email} is already a member of ${organization.slug} (route group ${routeGroup}).`);
    return `Added ${user.email} to ${organization.slug} as ${role.slug} (route group ${routeGroup}).`;
  });
  console.log(summary);
}

interface PermissionsOptions {
  org?: string;
  email?: string;
  grant?: string;
  deny?: string;
  clear?: string;
  group?: string;
  config?: string;
}

const describeMember = ({ listed }: Implementation, member: MemberDetails, organization: string) =>
  `${member.email} in ${organization}: role ${member.role_slug}; granted ${listed(member.granted_permissions)}; denied ${listed(member.denied_permissions)}.`;

interface LastOwnerCheck {
  trx: TenantTransaction;
  key: MembershipKey;
  ownerRole: string;
  member: MemberDetails;
  organization: string;
}

/** The HTTP API's last-owner rule; its refusal names the member and the way out. */
async function keepAnOwner(
  { assertOrganizationKeepsAnOwner }: Implementation,
  { trx, key, ownerRole, member, organization }: LastOwnerCheck,
  fate: MembershipFate,
  refused: string,
): Promise<void> {
  try {
    await assertOrganizationKeepsAnOwner(trx, key.routeGroup, ownerRole, member.id, fate);
  } catch (error) {
    if (!(error instanceof AccessDeniedError)) throw error;
    throw new Error(`${member.email} is the last ${ownerRole} of ${organization}${refused}: make another member ${ownerRole} first.`, { cause: error });
  }
}

/**
 * The member's own lists: a grant lifts a deny of the same permission and a deny a grant,
 * --clear takes it off both. Without any, shows the lists.
 */
async function permissions(orgArgument: string | undefined, emailArgument: string | undefined, options: PermissionsOptions, command: Command): Promise<void> {
  const loaded = await implementation();
  const { parsePermissionList, assertDisjoint, adminApp, membershipGroup, runAdmin, requireUser, enterOrganization, findMemberDetails, without, union, changeMembership } = loaded;
  const slug = flagOrArgument(command, '--org <slug>', options.org, orgArgument);
  const email = flagOrArgument(command, '--email <email>', options.email, emailArgument);
  const grant = parsePermissionList(options.grant, 'grant');
  const deny = parsePermissionList(options.deny, 'deny');
  const clear = parsePermissionList(options.clear, 'clear');
  assertDisjoint({ grant, deny, clear });
  const app = await adminApp(options.config);
  app.assertConditions({ grant, deny });
  const routeGroup = membershipGroup(app, options.group);
  const summary = await runAdmin(async (admin) => {
    const user = await requireUser(admin.owner, email);
    const { organization, trx } = await enterOrganization(admin, slug);
    const key = { organizationId: organization.id, routeGroup };
    const member = await findMemberDetails(trx, key, user.id);
    if (!member) throw new Error(`${user.email} is not a member of ${organization.slug} (route group ${routeGroup}).`);
    const changes = {
      granted_permissions: without(union(member.granted_permissions, grant), [...deny, ...clear]),
      denied_permissions: without(union(member.denied_permissions, deny), [...grant, ...clear]),
    };
    const check = { trx, key, ownerRole: app.settings.ownerRole, member, organization: organization.slug };
    await keepAnOwner(loaded, check, changes, ` and keeps every permission of the ${app.settings.ownerRole} role`);
    const updated = await changeMembership(trx, key, member, changes, null);
    return describeMember(loaded, updated, organization.slug);
  });
  console.log(summary);
}

interface MemberOptions {
  org: string;
  email?: string;
  group?: string;
  config?: string;
}

/** The members of one organization's route group, one line each. */
async function list(options: MemberOptions): Promise<void> {
  const loaded = await implementation();
  const { adminApp, membershipGroup, runAdmin, enterOrganization, listMemberDetails } = loaded;
  const routeGroup = membershipGroup(await adminApp(options.config), options.group);
  const lines = await runAdmin(async (admin) => {
    const { organization, trx } = await enterOrganization(admin, options.org);
    const members = await listMemberDetails(trx, { organizationId: organization.id, routeGroup });
    return members.length === 0 ? [`${organization.slug} has no members (route group ${routeGroup}).`] : members.map((member) => describeMember(loaded, member, organization.slug));
  });
  console.log(lines.join('\n'));
}

/** Ends a membership, audited with no user; the organization's last owner stays (make another owner first). */
async function remove(options: MemberOptions & { email: string }): Promise<void> {
  const loaded = await implementation();
  const { adminApp, membershipGroup, runAdmin, requireUser, enterOrganization, findMemberDetails, endMembership } = loaded;
  const app = await adminApp(options.config);
  const routeGroup = membershipGroup(app, options.group);
  const summary = await runAdmin(async (admin) => {
    const user = await requireUser(admin.owner, options.email);
    const { organization, trx } = await enterOrganization(admin, options.org);
    const key = { organizationId: organization.id, routeGroup };
    const member = await findMemberDetails(trx, key, user.id);
    if (!member) throw new Error(`${user.email} is not a member of ${organization.slug} (route group ${routeGroup}).`);
    await keepAnOwner(loaded, { trx, key, ownerRole: app.settings.ownerRole, member, organization: organization.slug }, 'removed', '');
    await endMembership(trx, key, member, null);
    return `Removed ${user.email} from ${organization.slug} (route group ${routeGroup}).`;
  });
  console.log(summary);
}

export const memberCommand: CliCommand = (program) => {
  const member = commandGroup(program, 'member', "Manage organizations' members");
  member
    .command('add')
    .description('Make an existing user a member of an organization, with a role')
    .requiredOption('--org <slug>', 'the organization')
    .requiredOption('--email <email>', 'the user (`user create` makes one)')
    .requiredOption('--role <role-slug>', 'a role with permissions in the organization (e.g. owner)')
    .addOption(groupOption("the membership's"))
    .addOption(configOption())
    .action(add);
  member
    .command('permissions')
    .description("Grant or deny a member permissions on top of their role's (deny wins); with no option, show them")
    .usage('--org <slug> --email <email> [options]')
    .argument('[org]', 'the organization slug (same as --org)')
    .argument('[email]', 'the member (same as --email)')
    .option('--org <slug>', 'the organization')
    .option('--email <email>', 'the member')
    .option('--grant <list>', 'permissions to grant, comma- or space-separated (lifts a deny of the same)')
    .option('--deny <list>', 'permissions to deny even if the role has them (lifts a grant of the same)')
    .option('--clear <list>', 'permissions to take off both lists')
    .addOption(groupOption("the membership's"))
    .addOption(configOption())
    .action(permissions);
  member
    .command('list')
    .description("List an organization's members with their role and own permissions")
    .requiredOption('--org <slug>', 'the organization')
    .addOption(groupOption('the memberships\''))
    .addOption(configOption())
    .action(list);
  member
    .command('remove')
    .description('End a membership (the user stays); never the last owner')
    .requiredOption('--org <slug>', 'the organization')
    .requiredOption('--email <email>', 'the member')
    .addOption(groupOption("the membership's"))
    .addOption(configOption())
    .action(remove);
};
