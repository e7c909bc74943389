import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** util.parseArgs with strict checking, reporting mistakes as the command's usage. */
export function parseCommandArgs<T extends Options>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch {
    throw new UsageError(usage);
  }
}
