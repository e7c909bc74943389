import type { Command } from 'commander';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { flagOrArgument } from '../flag-or-argument.js';

// Loaded when a subcommand runs: the definitions below, all that `--help` needs, load without it.
const implementation = async () => {
  const [access, urls, target] = await Promise.all([import('../../db/logins/analyst-access.js'), import('../../db/logins/role-url.js'), import('../database-target.js')]);
  return { ...access, ...urls, ...target };
};

interface AccessOptions {
  role?: string;
  org?: string;
}

interface GrantOptions extends AccessOptions {
  create?: boolean;
  password?: string;
}

// `--role r --org s`, or the positional `<role> <org-slug>` of before.
const access = (command: Command, options: AccessOptions, role: string | undefined, slug: string | undefined) => ({
  role: flagOrArgument(command, '--role <role>', options.role, role),
  slug: flagOrArgument(command, '--org <slug>', options.org, slug),
});

async function grant(role: string, slug: string, options: GrantOptions): Promise<void> {
  const { withMigratedDatabase, grantAnalystAccess, roleUrl } = await implementation();
  return withMigratedDatabase(async (target) => {
    const grant = await grantAnalystAccess(target.ownerUrl, { role, organizationSlug: slug, create: options.create, password: options.password });
    if (grant.created) console.log(`Created login role ${role} (member of gatehouse_analyst).`);
    if (grant.generatedPassword) console.log(`Password (shown once): ${grant.generatedPassword}`);
    console.log(`${role} can read organization ${slug}.`);
    console.log(`Connect with: psql "${roleUrl(target.ownerUrl, role, grant.generatedPassword ?? undefined)}"`);
  });
}

async function revoke(role: string, slug: string): Promise<void> {
  const { withMigratedDatabase, revokeAnalystAccess } = await implementation();
  return withMigratedDatabase(async (target) => {
    const revoked = await revokeAnalystAccess(target.ownerUrl, role, slug);
    console.log(revoked ? `Revoked ${role}'s access to ${slug}.` : `${role} had no access to ${slug}.`);
  });
}

async function list(): Promise<void> {
  const { withMigratedDatabase, listAnalysts } = await implementation();
  const analysts = await withMigratedDatabase((target) => listAnalysts(target.ownerUrl));
  console.log(analysts.length === 0 ? 'No analysts.' : analysts.map((analyst) => `${analyst.role}: ${analyst.organizations.join(', ')}`).join('\n'));
}

async function remove(options: { role: string }): Promise<void> {
  const { withMigratedDatabase, removeAnalyst } = await implementation();
  const removed = await withMigratedDatabase((target) => removeAnalyst(target.ownerUrl, options.role));
  console.log(removed ? `${options.role} can no longer read any organization of this database, nor connect to it.` : `${options.role} had no access to this database.`);
}

const positional = (what: string) => `${what} (an alias of the flag)`;
const ANALYST_ROLE = 'PostgreSQL login role of the analyst';

/** The analyst's login role and an organization, as flags or, an alias, positionally. */
const takesAccess = (command: Command, organization: string) =>
  command
    .argument('[role]', positional(ANALYST_ROLE))
    .argument('[org-slug]', positional(organization))
    .option('--role <role>', ANALYST_ROLE)
    .option('--org <slug>', organization);

export const analystCommand: CliCommand = (program) => {
  const analyst = commandGroup(program, 'analyst', 'Let a PostgreSQL login read chosen organizations (psql, BI tools)');
  takesAccess(analyst.command('grant').description('Let a login role read an organization').usage('--role <role> --org <slug> [--create [--password <password>]]'), 'organization it may read')
    .option('--create', 'create the login role first')
    .option('--password <password>', 'password of the created role (generated and shown once when left out)')
    .action((role: string | undefined, slug: string | undefined, options: GrantOptions, command: Command) => {
      const chosen = access(command, options, role, slug);
      if (options.password !== undefined && !options.create) command.error('error: --password goes with --create');
      return grant(chosen.role, chosen.slug, options);
    });
  takesAccess(analyst.command('revoke').description("Take back a login role's access to an organization").usage('--role <role> --org <slug>'), 'organization it may no longer read')
    .action((role: string | undefined, slug: string | undefined, options: AccessOptions, command: Command) => {
      const chosen = access(command, options, role, slug);
      return revoke(chosen.role, chosen.slug);
    });
  analyst.command('list').description('List the analysts of this database and the organizations each may read').action(list);
  analyst
    .command('remove')
    .description('Take every organization of this database from an analyst, and its CONNECT (the login role stays)')
    .requiredOption('--role <role>', ANALYST_ROLE)
    .action(remove);
};
