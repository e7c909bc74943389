import { grantAnalystAccess, revokeAnalystAccess } from '../../db/analyst-access.js';
import { roleUrl } from '../../db/role-url.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { withDatabaseTarget } from '../database-target.js';

interface GrantOptions {
  create?: boolean;
  password?: string;
}

async function grant(role: string, slug: string, options: GrantOptions): Promise<void> {
  return withDatabaseTarget(async (target) => {
    const grant = await grantAnalystAccess(target.ownerUrl, { role, organizationSlug: slug, create: options.create, password: options.password });
    if (grant.created) console.log(`Created login role ${role} (member of gatehouse_analyst).`);
    if (grant.generatedPassword) console.log(`Password (shown once): ${grant.generatedPassword}`);
    console.log(`${role} can read organization ${slug}.`);
    console.log(`Connect with: psql "${roleUrl(target.ownerUrl, role, grant.generatedPassword ?? undefined)}"`);
  });
}

async function revoke(role: string, slug: string): Promise<void> {
  return withDatabaseTarget(async (target) => {
    const revoked = await revokeAnalystAccess(target.ownerUrl, role, slug);
    console.log(revoked ? `Revoked ${role}'s access to ${slug}.` : `${role} had no access to ${slug}.`);
  });
}

export const analystCommand: CliCommand = (program) => {
  const analyst = commandGroup(program, 'analyst', 'Let a PostgreSQL login read chosen organizations (psql, BI tools)');
  analyst
    .command('grant')
    .description('Let <role> read organization <org-slug>')
    .usage('<role> <org-slug> [--create [--password <password>]]')
    .argument('<role>', 'PostgreSQL login role of the analyst')
    .argument('<org-slug>', 'organization it may read')
    .option('--create', 'create the login role first')
    .option('--password <password>', 'password of the created role (generated and shown once when left out)')
    .action((role: string, slug: string, options: GrantOptions, command) => {
      if (options.password !== undefined && !options.create) command.error('error: --password goes with --create');
      return grant(role, slug, options);
    });
  analyst
    .command('revoke')
    .description("Take back <role>'s access to organization <org-slug>")
    .argument('<role>', 'PostgreSQL login role of the analyst')
    .argument('<org-slug>', 'organization it may no longer read')
    .action(revoke);
};
