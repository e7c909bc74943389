import { paginated } from '../data/paginated.js';
import { pagination } from '../data/read-actions.js';
import { listDecisionLogs } from '../db/repositories/decision-logs.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import { readDecisionsQuery } from './decisions-query.js';

/** `GET {t}/decisions`: the organization's stored refusals, newest first. */
export function listDecisions(): GatehouseMiddleware {
  return async (ctx) => {
    const { filters, page } = readDecisionsQuery(ctx);
    const { rows, total } = await listDecisionLogs(required(ctx, 'trx'), required(ctx, 'organization').id, filters, page);
    ctx.body = paginated(ctx, { data: rows, pagination: pagination(page, total) });
  };
}
