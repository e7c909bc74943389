import { ForbiddenIncludeError } from '../errors/forbidden-include-error.js';
import { explainIncludes, type IncludeRequest } from '../explain/explain-includes.js';

/**
 * Every hop of every include needs `{included_slug}.index`: `ForbiddenIncludeError` (403) naming
 * the path up to the first refused hop and the permission it needs, `UnknownIncludeError` (400)
 * for a relation that does not exist.
 */
export function authorizeIncludes(request: IncludeRequest): void {
  const explanation = explainIncludes(request);
  if (!explanation.allowed) throw new ForbiddenIncludeError(explanation.include, explanation.permission);
}
