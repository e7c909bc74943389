import { InvalidIncludeError } from '../errors/invalid-include-error.js';

const RELATION = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits `include=a,b.c` into dotted paths (`['a', 'b.c']`), once each, in request order. An
 * empty value includes nothing; an empty relation or a character outside a relation name throws
 * `InvalidIncludeError` (400).
 */
export function parseIncludeParam(include: string): string[] {
  if (include === '') return [];
  const paths = include.split(',');
  for (const path of paths) {
    for (const relation of path.split('.')) {
      if (relation === '') throw new InvalidIncludeError(include, 'it has an empty relation name');
      if (!RELATION.test(relation)) throw new InvalidIncludeError(include, `${JSON.stringify(relation)} is not a relation name`);
    }
  }
  return [...new Set(paths)];
}
