import { z } from 'zod';
import { positiveQueryInteger, readQueryWith } from '../http/query-string.js';
import type { GatehouseContext } from '../http/state.js';
import { pagingQuery } from '../listing/parameters/page.js';
import { MAX_INTEGER } from '../models/integer-range.js';
import type { AuditLogFilters, AuditLogPage } from '../db/repositories/audit-logs.js';

const AUDIT_TRAIL_QUERY = z.object({
  ...pagingQuery,
  'filter[model]': z.string().regex(/^[a-z][a-z0-9_]{0,62}$/).optional(),
  'filter[user_id]': positiveQueryInteger(MAX_INTEGER).optional(),
  'filter[action]': z.string().regex(/^[a-z_]{1,40}$/).optional(),
});

const PARAMETERS = Object.keys(AUDIT_TRAIL_QUERY.shape) as (keyof typeof AUDIT_TRAIL_QUERY.shape)[];

/** `GET {t}/audit`'s query string; a malformed value is a 400 naming its parameter (or, for `page` and `per_page`, its bounds). */
export function readAuditTrailQuery(ctx: GatehouseContext): { filters: AuditLogFilters; page: AuditLogPage } {
  const query = readQueryWith(ctx, AUDIT_TRAIL_QUERY);
  return {
    filters: { model: query['filter[model]'], userId: query['filter[user_id]'], action: query['filter[action]'] },
    page: { page: query.page, perPage: query.per_page },
  };
}

/** The query parameters, for the API reference. */
export const auditTrailQuerySchema = z.object(Object.fromEntries(PARAMETERS.map((name) => [name, z.string().optional()])));
