import { grantAnalystAccess, revokeAnalystAccess } from '../../db/analyst-access.js';
import { roleUrl } from '../../db/role-url.js';
import { openDatabaseTarget } from '../database-target.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

const USAGE = 'gatehouse analyst grant <role> <org-slug> [--create [--password <password>]]\n       gatehouse analyst revoke <role> <org-slug>';

export async function analystCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { create: { type: 'boolean' }, password: { type: 'string' } }, USAGE);
  const [action, role, slug] = positionals;
  const misused = (values.password !== undefined && !values.create) || (action === 'revoke' && values.create);
  if (!role || !slug || positionals.length !== 3 || misused || (action !== 'grant' && action !== 'revoke')) throw new UsageError(USAGE);

  const target = await openDatabaseTarget();
  try {
    if (action === 'revoke') {
      const revoked = await revokeAnalystAccess(target.ownerUrl, role, slug);
      console.log(revoked ? `Revoked ${role}'s access to ${slug}.` : `${role} had no access to ${slug}.`);
      return;
    }
    const grant = await grantAnalystAccess(target.ownerUrl, { role, organizationSlug: slug, create: values.create, password: values.password });
    if (grant.created) console.log(`Created login role ${role} (member of gatehouse_analyst).`);
    if (grant.generatedPassword) console.log(`Password (shown once): ${grant.generatedPassword}`);
    console.log(`${role} can read organization ${slug}.`);
    console.log(`Connect with: psql "${roleUrl(target.ownerUrl, role, grant.generatedPassword ?? undefined)}"`);
  } finally {
    await target.stop();
  }
}
