import { ValidationError } from '../../errors/validation-error.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';

// Loaded when a subcommand runs: the definitions below, all that `--help` needs, load without it.
const implementation = async () => {
  const [schemas, password, users, lookups, validation, permissionList, app, reading, admin] = await Promise.all([
    import('../../auth/auth-schemas.js'),
    import('../../auth/password.js'),
    import('../../db/repositories/users.js'),
    import('../admin-lookups.js'),
    import('../../http/validate.js'),
    import('../permission-list.js'),
    import('../admin-app.js'),
    import('../read-password.js'),
    import('../run-admin.js'),
  ]);
  return { ...schemas, ...password, ...users, ...lookups, ...validation, ...permissionList, ...app, ...reading, ...admin };
};

interface CreateOptions {
  email: string;
  name: string;
  password?: string;
  permissions?: string;
  config?: string;
}

/**
 * Registration's rules without the invitation: the user belongs to no organization yet. Their own
 * permissions are checked against the config's models as role and member permissions are.
 */
async function createUserCommand(options: CreateOptions): Promise<void> {
  const { parsePermissionList, adminApp, readPassword, validate, newUserSchema, hashPassword, runAdmin, findUserByEmail, createUser, listed } =
    await implementation();
  const permissions = parsePermissionList(options.permissions, 'permissions');
  if (options.permissions !== undefined) (await adminApp(options.config)).assertConditions({ permissions });
  const entry = options.password === undefined ? await readPassword() : { password: options.password, confirmation: options.password };
  const input = validate(newUserSchema, { name: options.name, email: options.email, password: entry.password, password_confirmation: entry.confirmation });
  const passwordHash = await hashPassword(input.password);
  const user = await runAdmin(async ({ owner }) => {
    if (await findUserByEmail(owner, input.email)) throw ValidationError.field('email', `The email ${input.email} has already been taken.`);
    return createUser(owner, { name: input.name, email: input.email, passwordHash, permissions });
  });
  console.log(`Created user ${user.email} (${user.name}, id ${user.id}); own permissions: ${listed(user.permissions)}.`);
}

async function list(): Promise<void> {
  const { runAdmin, listed } = await implementation();
  const users = await runAdmin(({ owner }) => owner.selectFrom('users').select(['id', 'email', 'name', 'permissions']).orderBy('id').execute());
  console.log(users.length === 0 ? 'No users.' : users.map((user) => `${user.email} (${user.name}, id ${user.id}); own permissions: ${listed(user.permissions)}.`).join('\n'));
}

/** Deletes the user with their memberships and sessions; their audit entries keep no user. */
async function remove(options: { email: string }): Promise<void> {
  const { runAdmin, requireUser } = await implementation();
  const user = await runAdmin(async ({ owner }) => {
    const user = await requireUser(owner, options.email);
    await owner.deleteFrom('users').where('id', '=', user.id).execute();
    return user;
  });
  console.log(`Removed user ${user.email} (id ${user.id}).`);
}

export const userCommand: CliCommand = (program) => {
  const user = commandGroup(program, 'user', 'Create, list and remove users (the first ones of a fresh database, too)');
  user.command('list').description('List every user with their own permissions').action(list);
  user
    .command('remove')
    .description('Delete a user, with their memberships and sessions')
    .requiredOption('--email <email>', 'the user')
    .action(remove);
  user
    .command('create')
    .description('Create a user who can sign in; add them to organizations with `member add`')
    .requiredOption('--email <email>', 'their sign-in email (unique, case-insensitively)')
    .requiredOption('--name <name>', 'their display name')
    .option('--password <password>', 'their password, at least 8 characters (default: asked twice on a terminal, else the first line of standard input)')
    .option('--permissions <list>', "their own permissions, comma- or space-separated (e.g. '*'): what route groups without organizations authorize with")
    .addOption(configOption())
    .action(createUserCommand);
};
