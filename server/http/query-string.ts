import { BadRequestError } from '../errors/bad-request-error.js';
import type { GatehouseContext } from './state.js';

/** The query string as single values; an unknown or repeated parameter is a 400 naming it. */
export function readQuery<Key extends string>(ctx: GatehouseContext, allowed: readonly Key[]): Partial<Record<Key, string>> {
  const values: Partial<Record<Key, string>> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (!(allowed as readonly string[]).includes(key)) throw new BadRequestError(`Unknown query parameter: ${key}.`);
    if (typeof value !== 'string') throw new BadRequestError(`The query parameter ${key} may appear only once.`);
    values[key as Key] = value;
  }
  return values;
}
