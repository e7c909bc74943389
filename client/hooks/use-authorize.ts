import { bodyOf } from '../http/response-body.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

/** One question for `POST {t}/authorize`: may the caller do `action` on `model` (its record `id`)? */
export interface AuthorizeCheck {
  model: string;
  action: string;
  id?: number | string;
  fields?: { read?: string[]; write?: string[] };
  include?: string[];
}

export interface AuthorizeResult {
  allowed: boolean;
  /** What the request itself would answer, when refused. */
  message?: string;
  reason?: { gate: string; permission?: string; policy?: string; fields?: string[]; include?: string };
}

/**
 * Record checks (edit this post? delete that comment?) answered by the server in one request,
 * through the same policies and record gate as the requests themselves; results in order. For
 * model-level actions `useAbility` and `Can` already know the answer.
 */
export function useAuthorize(checks: readonly AuthorizeCheck[]) {
  return useScopedQuery(
    useTenantScope(),
    'authorize',
    [checks],
    async (http, base) => (await bodyOf(http.post<{ results: AuthorizeResult[] }>(`${base}/authorize`, { checks }))).results,
    checks.length > 0,
  );
}
