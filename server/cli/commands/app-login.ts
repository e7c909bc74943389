import type { CliCommand } from '../cli-command.js';

async function appLogin(role: string, options: { password?: string }): Promise<void> {
  const [{ withDatabaseTarget }, { provisionAppLogin }, { roleUrl }] = await Promise.all([
    import('../database-target.js'),
    import('../../db/logins/app-login.js'),
    import('../../db/logins/role-url.js'),
  ]);
  return withDatabaseTarget(async (target) => {
    const login = await provisionAppLogin(target.ownerUrl, role, options.password);
    console.log(`${login.created ? 'Created' : 'Updated the password of'} login role ${role} (member of gatehouse_app).`);
    if (login.generatedPassword) console.log(`Password (shown once): ${login.generatedPassword}`);
    console.log(`Service connection string: ${roleUrl(target.ownerUrl, role, login.generatedPassword ?? undefined)}`);
  });
}

export const appLoginCommand: CliCommand = (program) => {
  program
    .command('app-login')
    .description('Create (or set the password of) a dedicated PostgreSQL login for the service')
    .argument('<role>', 'login role name')
    .option('--password <password>', 'its password (generated and shown once when left out)')
    .action(appLogin);
};
