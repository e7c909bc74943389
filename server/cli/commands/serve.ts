import type { CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';
import { gatehouseCommand } from '../../errors/gatehouse-command.js';

/** Serves the application (see loadAppConfig: in a checkout without a config, the demo) on a migrated database. */
async function serve(options: { config?: string }): Promise<void> {
  const [{ appConfig }, { runServer }] = await Promise.all([import('../load-config.js'), import('../run-server.js')]);
  const app = await appConfig(options.config);
  return runServer({ app, developmentKey: false, announce: (url) => console.log(`Gatehouse listening on ${url}`) });
}

export const serveCommand: CliCommand = (program) => {
  program
    .command('serve')
    .description(`Serve an already migrated database (\`${gatehouseCommand('migrate')}\` first)`)
    .addOption(configOption())
    .action(serve);
};
