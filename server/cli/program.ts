import { Command } from 'commander';
import { SERVER_VERSION } from '../service/server-version.js';
import type { CliCommand } from './cli-command.js';
import { COMMANDS } from './commands/index.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

/**
 * The `gatehouse` command line. Commander reports its own mistakes (unknown command or option,
 * missing argument) with the usage, and throws instead of exiting: main.ts picks the exit code.
 */
export function createProgram(commands: readonly CliCommand[] = COMMANDS): Command {
  const program = new Command('gatehouse')
    .description(`Gatehouse: a multi-tenant model service. Run \`${gatehouseCommand('<command> --help')}\` for a command.`)
    .version(SERVER_VERSION, '-V, --version')
    .usage('<command> [options]')
    // Inherited by every command added below.
    .exitOverride()
    .showHelpAfterError();
  for (const add of commands) add(program);
  return program;
}
