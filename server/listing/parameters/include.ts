import { parseIncludeParam } from '@gatehouse/engine';
import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { MAX_INCLUDE_DEPTH, MAX_QUERY_LIST } from '../../models/request-limits.js';
import { bounded, documented, type QueryParameter } from '../query-parameter.js';

/**
 * `include=a,b.c` as its dotted paths, held to the include limits before anything is read: at
 * most MAX_QUERY_LIST paths of at most MAX_INCLUDE_DEPTH relations each, else a 400 naming the
 * limit. `name` is the parameter as the caller wrote it. Explain reads an include with it too.
 */
export function includePaths(name: string, value: string): string[] {
  // Counted as written: repeated paths cost their parsing before they collapse.
  bounded(name, value.split(','));
  const paths = parseIncludeParam(value);
  const depth = Math.max(0, ...paths.map((path) => path.split('.').length));
  if (depth > MAX_INCLUDE_DEPTH) {
    throw new InvalidQueryError(`The query parameter ${name} may nest at most ${MAX_INCLUDE_DEPTH} relations in one path; it nests ${depth}.`);
  }
  return paths;
}

/** `include=a,b.c`: related records to embed; the include gate checks every hop against the caller's permissions. */
export const include: QueryParameter = {
  name: 'include',
  keyed: 'never',
  read: ([entry]) => ({ includes: includePaths(entry!.raw, entry!.value) }),
  document(model) {
    const relations = Object.keys(model.relations);
    if (relations.length === 0) return [];
    const description = `Comma-separated relation paths (dot for nesting): ${relations.join(', ')}. At most ${MAX_QUERY_LIST} paths of at most ${MAX_INCLUDE_DEPTH} relations each.`;
    return [documented('include', description)];
  },
};
