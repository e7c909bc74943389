import type { GatehouseConfig } from '../../config/gatehouse-config.js';
import type { CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';
import { gatehouseCommand } from '../../errors/gatehouse-command.js';

async function demoBanner(url: string, databaseUrl: string, webRoot: string | undefined): Promise<string> {
  const [{ demoIntroduction }, { maskedUrl }] = await Promise.all([import('../demo-checkout.js'), import('../masked-url.js')]);
  return [
    ...(await demoIntroduction(url)),
    `API reference: ${url}/api/docs (description: ${url}/api/openapi.json)`,
    webRoot === undefined ? 'Demo web app: not built (npm run build:web), so / answers 404' : `Demo web app: ${url}/`,
    `Database: ${maskedUrl(databaseUrl)}   (\`${gatehouseCommand('db url')}\` prints it whole)`,
    `Development mail: \`${gatehouseCommand('mail')}\``,
  ].join('\n');
}

const prepare = (app: GatehouseConfig, seeded: string) => async (ownerUrl: string) => {
  const { migrate } = await import('../../db/migrations/migrations.js');
  await migrate(ownerUrl, { dir: app.migrations });
  if (await app.seed?.(ownerUrl)) console.log(seeded);
};

/**
 * The database (embedded unless DATABASE_URL), the core's and the application's migrations, its
 * seed once, then serve. The application: `--config`, else the working directory's config file,
 * else (in a checkout) the demo, with its logins in the banner and its web app.
 */
async function start(options: { config?: string }): Promise<void> {
  const [{ loadAppConfig }, { demoWebRoot }, { runServer }] = await Promise.all([
    import('../load-config.js'),
    import('../demo-checkout.js'),
    import('../run-server.js'),
  ]);
  const { config: app, isDemo } = await loadAppConfig(options.config);
  const webRoot = isDemo ? demoWebRoot() : undefined;
  return runServer({
    app,
    prepare: prepare(app, isDemo ? 'Seeded the demo data.' : 'Seeded.'),
    developmentKey: true,
    provisionLogin: true,
    webRoot,
    announce: async (url, databaseUrl) => console.log(isDemo ? await demoBanner(url, databaseUrl, webRoot) : `Gatehouse listening on ${url}`),
  });
}

export const startCommand: CliCommand = (program) => {
  program
    .command('start')
    .description('Run the application (the demo by default): database (embedded unless DATABASE_URL), migrations, seed once, then serve')
    .addOption(configOption())
    .action(start);
};
