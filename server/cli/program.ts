import { createRequire } from 'node:module';
import { Command } from 'commander';
import type { CliCommand } from './cli-command.js';
import { COMMANDS } from './commands/index.js';

// By package name, so the sources and the build (dist/) find the same file.
const { version } = createRequire(import.meta.url)('@gatehouse/server/package.json') as { version: string };

/**
 * The `gatehouse` command line. Commander reports its own mistakes (unknown command or option,
 * missing argument) with the usage, and throws instead of exiting: main.ts picks the exit code.
 */
export function createProgram(commands: readonly CliCommand[] = COMMANDS): Command {
  const program = new Command('gatehouse')
    .description('Gatehouse: a multi-tenant model service. Run `gatehouse <command> --help` for a command.')
    .version(version, '-V, --version')
    .usage('<command> [options]')
    // Inherited by every command added below.
    .exitOverride()
    .showHelpAfterError();
  for (const add of commands) add(program);
  return program;
}
