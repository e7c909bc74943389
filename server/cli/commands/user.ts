import { newUserSchema } from '../../auth/auth-schemas.js';
import { hashPassword } from '../../auth/password.js';
import { createUser, findUserByEmail } from '../../db/repositories/users.js';
import { requireUser } from '../admin-lookups.js';
import { ValidationError } from '../../http/errors/validation-error.js';
import { validate } from '../../http/validate.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { listed, parsePermissionList } from '../permission-list.js';
import { readPassword } from '../read-password.js';
import { runAdmin } from '../run-admin.js';

interface CreateOptions {
  email: string;
  name: string;
  password?: string;
  permissions?: string;
}

/** Registration's rules without the invitation: the user belongs to no organization yet. */
async function createUserCommand(options: CreateOptions): Promise<void> {
  const permissions = parsePermissionList(options.permissions, 'permissions');
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
  const users = await runAdmin(({ owner }) => owner.selectFrom('users').select(['id', 'email', 'name', 'permissions']).orderBy('id').execute());
  console.log(users.length === 0 ? 'No users.' : users.map((user) => `${user.email} (${user.name}, id ${user.id}); own permissions: ${listed(user.permissions)}.`).join('\n'));
}

/** Deletes the user with their memberships and sessions; their audit entries keep no user. */
async function remove(options: { email: string }): Promise<void> {
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
    .action(createUserCommand);
};
