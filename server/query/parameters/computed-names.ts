import { BadRequestError } from '../../http/errors/bad-request-error.js';
import { commaList } from '../query-parameter.js';

/** A list of names out of a model's declared ones; the unknown ones are a 400 naming them all. */
export function declaredNames(value: string, declared: Record<string, unknown>): string[] {
  const names = [...new Set(commaList(value))];
  const unknown = names.filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length > 0) throw new BadRequestError(`Unknown computed attribute${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`);
  return names;
}
