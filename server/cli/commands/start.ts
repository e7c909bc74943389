import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD, DEMO_USERS } from '../../../policies/seed.js';
import type { GatehouseConfig } from '../../config/gatehouse-config.js';
import { migrate } from '../../db/migrations.js';
import type { CliCommand } from '../cli-command.js';
import { appConfig, findConfigFile } from '../load-config.js';
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

const prepare = (app: GatehouseConfig, seeded: string) => async (ownerUrl: string) => {
  await migrate(ownerUrl, { dir: app.migrations });
  if (await app.seed?.(ownerUrl)) console.log(seeded);
};

/**
 * The database (embedded unless DATABASE_URL), the core's and the application's migrations, its
 * seed once, then serve. The application: `--config`, else the working directory's config file,
 * else (in a checkout) the demo, with its logins in the banner and its web app.
 */
async function start(options: { config?: string }): Promise<void> {
  const isDemo = findConfigFile(options.config) === undefined;
  const app = await appConfig(options.config, { demoByDefault: true });
  return runServer({
    app,
    prepare: prepare(app, isDemo ? 'Seeded the demo data.' : 'Seeded.'),
    developmentKey: true,
    provisionLogin: true,
    webRoot: isDemo && webBuilt() ? WEB_ROOT : undefined,
    announce: (url, databaseUrl) => console.log(isDemo ? banner(url, databaseUrl) : `Gatehouse listening on ${url}`),
  });
}

export const startCommand: CliCommand = (program) => {
  program
    .command('start')
    .description('Run the application (the demo by default): database (embedded unless DATABASE_URL), migrations, seed once, then serve')
    .option('--config <file>', 'the application config (default: gatehouse.config.ts|.js|.mjs here, else the demo)')
    .action(start);
};
