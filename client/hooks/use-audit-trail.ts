import { fetchIndexPage } from '../http/index-page.js';
import { presentParams } from '../urls/present-params.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

/** One row of the organization's audit trail: a record change or a permission change. */
export interface AuditTrailEntry {
  id: number;
  /** A model slug, or `memberships` / `role_permissions`. */
  model: string;
  record_id: string;
  action: string;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  user_id: number | null;
  user: { id: number; name: string | null } | null;
  created_at: string;
}

export interface AuditTrailQuery {
  page?: number;
  perPage?: number;
  model?: string;
  userId?: number;
  action?: string;
}

function auditParams({ page, perPage, model, userId, action }: AuditTrailQuery): Record<string, string> {
  return presentParams({ page, per_page: perPage, 'filter[model]': model, 'filter[user_id]': userId, 'filter[action]': action });
}

/** The organization's audit trail (`audit.index`), newest first, one page as `{data, meta}`. */
export function useAuditTrail(query: AuditTrailQuery = {}) {
  const params = auditParams(query);
  return useScopedQuery(useTenantScope(), 'audit', [params], (http, base) => fetchIndexPage<AuditTrailEntry>(http, `${base}/audit`, params));
}
