import demo from '../../../policies/gatehouse.config.js';
import type { CliCommand } from '../cli-command.js';
import { runServer } from '../run-server.js';

/** Serves on an already migrated database (`gatehouse migrate` first). */
function serve(): Promise<void> {
  return runServer({ app: demo, developmentKey: false, announce: (url) => console.log(`Gatehouse listening on ${url}`) });
}

export const serveCommand: CliCommand = (program) => {
  program.command('serve').description('Serve an already migrated database (`gatehouse migrate` first)').action(serve);
};
