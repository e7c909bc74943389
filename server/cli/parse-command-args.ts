import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

// Named because @types/node does not export the result type, which a declaration must spell out.
type ParsedCommandArgs<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

/** util.parseArgs with strict checking, reporting mistakes as the command's usage. */
export function parseCommandArgs<T extends Options>(args: string[], options: T, usage: string): ParsedCommandArgs<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch {
    throw new UsageError(usage);
  }
}
