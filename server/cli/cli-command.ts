import type { Command } from 'commander';

/**
 * One CLI command, kept in its own file under `commands/`: it adds itself (name, arguments,
 * options, help text, action) to the program. List it in `commands/index.ts`. The action loads
 * what it runs with `import()`: every command file loads for any command and for `--help`, so its
 * static imports stay light (commander, option helpers, constants, types).
 */
export type CliCommand = (program: Command) => void;

/**
 * The parent of a family of subcommands (`role` of `role create` and `role permissions`), made on
 * first use so that each subcommand can still live in a file of its own.
 */
export function commandGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((command) => command.name() === name) ?? program.command(name).description(description);
}
