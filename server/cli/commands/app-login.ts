import { provisionAppLogin } from '../../db/app-login.js';
import { roleUrl } from '../../db/role-url.js';
import { openDatabaseTarget } from '../database-target.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

const USAGE = 'gatehouse app-login <role> [--password <password>]';

export async function appLoginCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { password: { type: 'string' } }, USAGE);
  const [role] = positionals;
  if (!role || positionals.length !== 1) throw new UsageError(USAGE);

  const target = await openDatabaseTarget();
  try {
    const login = await provisionAppLogin(target.ownerUrl, role, values.password);
    console.log(`${login.created ? 'Created' : 'Updated the password of'} login role ${role} (member of gatehouse_app).`);
    if (login.generatedPassword) console.log(`Password (shown once): ${login.generatedPassword}`);
    console.log(`Service connection string: ${roleUrl(target.ownerUrl, role, login.generatedPassword ?? undefined)}`);
  } finally {
    await target.stop();
  }
}
