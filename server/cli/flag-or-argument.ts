import type { Command } from 'commander';

/**
 * One flag style everywhere (`--org acme --email x`), the positional forms kept as aliases: the
 * flag's value, else the argument's; naming both differently, or neither, is a usage error.
 */
export function flagOrArgument(command: Command, flag: string, fromFlag: string | undefined, fromArgument: string | undefined): string {
  if (fromFlag !== undefined && fromArgument !== undefined && fromFlag !== fromArgument) {
    command.error(`error: ${flag} ${fromFlag} and the argument ${fromArgument} disagree; give one of them`);
  }
  const value = fromFlag ?? fromArgument;
  if (value === undefined) command.error(`error: required option '${flag}' not specified`);
  return value;
}
