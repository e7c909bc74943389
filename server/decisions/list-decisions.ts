import { paginated } from '../data/paginated.js';
import { pagination } from '../data/read-actions.js';
import { listDecisionLogs } from '../db/repositories/decision-logs.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { readDecisionsQuery } from './decisions-query.js';

/** `GET {t}/decisions`: the organization's stored refusals, newest first. */
export function listDecisions(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const { filters, page } = readDecisionsQuery(ctx);
    const { rows, total } = await listDecisionLogs(ctx.state.trx, ctx.state.organization.id, filters, page);
    ctx.body = paginated(ctx, { data: rows, pagination: pagination(page, total) });
  };
}
