import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import { ref } from '../routes/response-schemas.js';
import type { JsonSchema, ResponseDescription } from '../routes/route-definition.js';

const ERROR_MEANINGS: Record<number, string> = {
  400: 'Malformed request: a NUL character, a bad id, an unknown query name, a bad sort, filter, field or include, or a query past its limits (parameter count, include depth, list lengths, value lengths, page size).',
  401: 'Not signed in, or the session ended.',
  403: 'Refused: not a member of the route group, the policy, a field the caller may not set, or an include.',
  404: 'No such route, organization or record within the caller’s reach.',
  413: 'The body is larger than the configured limit.',
  415: 'The body is not JSON.',
  422: 'Validation failed, or the includes reach more records than one answer may hold.',
  429: 'Too many attempts, or past a fair share of the database pool (the organization’s, the user’s or the client address’s); retry after `Retry-After` seconds.',
  503: 'The database cannot be reached, or the request ran past its deadline; retry after `Retry-After` seconds.',
};

const ERROR_BODIES: Record<number, string> = { 403: 'Forbidden', 422: 'ValidationError' };
// The pipeline refuses these before any route runs (a NUL character in the query, too many query
// parameters, a request without a Host header), so every operation can answer them.
const PIPELINE_ERRORS = [400];

export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const errorResponse = (status: number) => ({ description: ERROR_MEANINGS[status] ?? 'Error', content: json(ref(ERROR_BODIES[status] ?? 'Error')) });
const pageHeaders = Object.fromEntries(Object.values(PAGE_HEADERS).map((name) => [name, { description: 'Pagination', schema: { type: 'integer' } }]));

/** An operation's answers, then the `{message}` errors it and the pipeline may answer. */
export function responses(answers: Readonly<Record<number, ResponseDescription>>, errors: readonly number[]): JsonSchema {
  const described = Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => [
      status,
      {
        description: answer.description,
        ...(answer.paged ? { headers: pageHeaders } : {}),
        ...(answer.contentType ? { content: { [answer.contentType]: { schema: { type: 'string' } } } } : answer.schema ? { content: json(answer.schema) } : {}),
      },
    ]),
  );
  return { ...described, ...Object.fromEntries([...new Set([...PIPELINE_ERRORS, ...errors])].sort().map((status) => [status, errorResponse(status)])) };
}
