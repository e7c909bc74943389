import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import demo from '../../../policies/gatehouse.config.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../../../policies/seed.js';
import { migrate } from '../../db/migrations.js';
import type { CliCommand } from '../cli-command.js';
import { maskedUrl } from '../masked-url.js';
import { runServer } from '../run-server.js';

// `npm start` builds it first (the `prestart` script).
const WEB_ROOT = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
const webBuilt = () => existsSync(`${WEB_ROOT}index.html`);

function banner(url: string, databaseUrl: string): string {
  const logins = DEMO_USERS.map((user) => `  ${user.email.padEnd(20)} ${(user.organization ?? 'admin group').padEnd(12)} ${user.role}`);
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
    `API reference: ${url}/api/docs (description: ${url}/api/openapi.json)`,
    webBuilt() ? `Demo web app: ${url}/` : 'Demo web app: not built (npm run build:web), so / answers 404',
    `Database: ${maskedUrl(databaseUrl)}   (\`gatehouse db url\` prints it whole)`,
    `Development mail: \`gatehouse mail\``,
  ].join('\n');
}

async function prepareDemo(ownerUrl: string): Promise<void> {
  await migrate(ownerUrl, { dir: demo.migrations });
  if (await demo.seed?.(ownerUrl)) console.log('Seeded the demo data.');
}

/** The demo: database (embedded unless DATABASE_URL), migrations, demo data once, then serve. */
function start(): Promise<void> {
  return runServer({
    app: demo,
    prepare: prepareDemo,
    developmentKey: true,
    provisionLogin: true,
    webRoot: webBuilt() ? WEB_ROOT : undefined,
    announce: (url, databaseUrl) => console.log(banner(url, databaseUrl)),
  });
}

export const startCommand: CliCommand = (program) => {
  program
    .command('start')
    .description('Run the demo: database (embedded unless DATABASE_URL), migrations, demo data once, then serve')
    .action(start);
};
