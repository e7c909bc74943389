import { findMemberDetails, type MemberDetails } from '../../db/repositories/members.js';
import { listOrganizationRoles } from '../../db/repositories/roles.js';
import { addMember, changeMembership } from '../../members/change-membership.js';
import { without } from '../../members/membership-rules.js';
import { adminApp, membershipGroup } from '../admin-app.js';
import { enterOrganization, requireRole, requireUser } from '../admin-lookups.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { configOption, groupOption } from '../common-options.js';
import { assertDisjoint, listed, parsePermissionList, union } from '../permission-list.js';
import { runAdmin } from '../run-admin.js';

interface AddOptions {
  org: string;
  email: string;
  role: string;
  group?: string;
  config?: string;
}

/** Like accepting an invitation: an existing user, a role configured in the organization. */
async function add(options: AddOptions): Promise<void> {
  const routeGroup = membershipGroup(await adminApp(options.config), options.group);
  const summary = await runAdmin(async (admin) => {
    const user = await requireUser(admin.owner, options.email);
    const role = await requireRole(admin.owner, options.role);
    const { organization, trx } = await enterOrganization(admin, options.org);
    if (!(await listOrganizationRoles(trx, organization.id)).some((configured) => configured.id === role.id)) {
      throw new Error(`Role ${role.slug} is not configured in ${organization.slug}: give it permissions there first (gatehouse role permissions ${organization.slug} ${role.slug} --grant <list>).`);
    }
    const member = await addMember(trx, { organizationId: organization.id, routeGroup }, user.id, role.id, null);
    if (!member) throw new Error(`${user.email} is already a member of ${organization.slug} (route group ${routeGroup}).`);
    return `Added ${user.email} to ${organization.slug} as ${role.slug} (route group ${routeGroup}).`;
  });
  console.log(summary);
}

interface PermissionsOptions {
  grant?: string;
  deny?: string;
  clear?: string;
  group?: string;
  config?: string;
}

const describeMember = (member: MemberDetails, organization: string) =>
  `${member.email} in ${organization}: role ${member.role_slug}; granted ${listed(member.granted_permissions)}; denied ${listed(member.denied_permissions)}.`;

/**
 * The member's own lists: a grant lifts a deny of the same permission and a deny a grant,
 * --clear takes it off both. Without any, shows the lists.
 */
async function permissions(slug: string, email: string, options: PermissionsOptions): Promise<void> {
  const grant = parsePermissionList(options.grant, 'grant');
  const deny = parsePermissionList(options.deny, 'deny');
  const clear = parsePermissionList(options.clear, 'clear');
  assertDisjoint({ grant, deny, clear });
  const routeGroup = membershipGroup(await adminApp(options.config), options.group);
  const summary = await runAdmin(async (admin) => {
    const user = await requireUser(admin.owner, email);
    const { organization, trx } = await enterOrganization(admin, slug);
    const key = { organizationId: organization.id, routeGroup };
    const member = await findMemberDetails(trx, key, user.id);
    if (!member) throw new Error(`${user.email} is not a member of ${organization.slug} (route group ${routeGroup}).`);
    const updated = await changeMembership(
      trx,
      key,
      member,
      {
        granted_permissions: without(union(member.granted_permissions, grant), [...deny, ...clear]),
        denied_permissions: without(union(member.denied_permissions, deny), [...grant, ...clear]),
      },
      null,
    );
    return describeMember(updated, organization.slug);
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
    .argument('<org>', 'the organization slug')
    .argument('<email>', 'the member')
    .option('--grant <list>', 'permissions to grant, comma- or space-separated (lifts a deny of the same)')
    .option('--deny <list>', 'permissions to deny even if the role has them (lifts a grant of the same)')
    .option('--clear <list>', 'permissions to take off both lists')
    .addOption(groupOption("the membership's"))
    .addOption(configOption())
    .action(permissions);
};
