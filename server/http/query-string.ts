import { z } from 'zod';
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

/** A query value of digits read as a whole number of 1..max, for `readQueryWith`'s schemas. */
export const positiveQueryInteger = (max: number) => z.string().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().int().min(1).max(max));

/**
 * The query string read by a zod object of its parameters, as `readQuery` reads it; a value the
 * schema refuses is a 400 naming its parameter, or in the schema's own words where it has some
 * (a custom issue: the bounds of `page` and `per_page`).
 */
export function readQueryWith<Schema extends z.ZodObject>(ctx: GatehouseContext, schema: Schema): z.output<Schema> {
  const result = schema.safeParse(readQuery(ctx, Object.keys(schema.shape)));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new BadRequestError(issue.code === 'custom' ? issue.message : `Invalid query parameter: ${String(issue.path[0])}.`);
}
