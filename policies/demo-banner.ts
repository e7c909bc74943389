import { DEMO_PASSWORD, DEMO_USERS } from './demo-accounts.js';

/** What `npm start` prints about the demo once it listens on `url`: its logins and a first request. */
export function demoIntroduction(url: string): string[] {
  const rows = DEMO_USERS.map((user) => [user.email, user.organization ?? 'admin group', user.role] as const);
  // Columns as wide as their longest entry, so a longer email never pushes its row out of line.
  const width = (column: 0 | 1) => Math.max(...rows.map((row) => row[column].length));
  const logins = rows.map(([email, organization, role]) => `  ${email.padEnd(width(0))}  ${organization.padEnd(width(1))}  ${role}`);
  return [
    `Gatehouse demo on ${url}/api`,
    '',
    `Demo logins (password ${DEMO_PASSWORD}):`,
    ...logins,
    '',
    'Try:',
    `  TOKEN=$(curl -s ${url}/api/auth/login -H 'Content-Type: application/json' \\`,
    `    -d '{"email":"editor@acme.test","password":"${DEMO_PASSWORD}"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
    `  curl -gs '${url}/api/acme/organizations?filter[slug]=acme&include=users' -H "Authorization: Bearer $TOKEN"`,
    `  curl -s '${url}/api/acme/posts?include=author&sort=-created_at' -H "Authorization: Bearer $TOKEN"`,
    '',
  ];
}
