import { grantAnalystAccess } from '../../server/db/logins/analyst-access.js';
import { roleUrl } from '../../server/db/logins/role-url.js';
import { uniqueRoleName } from './roles.js';

export interface TestAnalyst {
  role: string;
  /** Its own login over TCP, with the password the grant generated. */
  url: string;
}

/** A real analyst LOGIN role, created the way `gatehouse analyst grant --create` does. */
export async function createAnalyst(ownerUrl: string, organizationSlugs: string[]): Promise<TestAnalyst> {
  const role = uniqueRoleName('analyst');
  let password: string | null = null;
  for (const organizationSlug of organizationSlugs) {
    const grant = await grantAnalystAccess(ownerUrl, { role, organizationSlug, create: password === null });
    password ??= grant.generatedPassword;
  }
  if (password === null) throw new Error('an analyst needs at least one organization');
  return { role, url: roleUrl(ownerUrl, role, password) };
}
