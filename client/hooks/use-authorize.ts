import type { AuthorizeCheck, AuthorizeResult } from '@gatehouse/engine/wire';
import { bodyOf } from '../http/response-body.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

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
