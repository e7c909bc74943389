import type { TenantTransaction } from '../transactions/tenant-transaction.js';

/** What narrows an organization's decision log; each filter is optional. */
export interface DecisionLogFilters {
  userId?: number;
  gate?: string;
  permission?: string;
  source?: string;
  model?: string;
  since?: Date;
}

export interface DecisionLogPage {
  page: number;
  perPage: number;
}

/** One page of the organization's refusals, newest first, with the filtered total. */
export async function listDecisionLogs(trx: TenantTransaction, organizationId: number, filters: DecisionLogFilters, { page, perPage }: DecisionLogPage) {
  let log = trx.selectFrom('decision_logs').where('organization_id', '=', organizationId);
  if (filters.userId !== undefined) log = log.where('user_id', '=', filters.userId);
  if (filters.gate !== undefined) log = log.where('gate', '=', filters.gate);
  if (filters.permission !== undefined) log = log.where('permission', '=', filters.permission);
  if (filters.source !== undefined) log = log.where('source', '=', filters.source);
  if (filters.model !== undefined) log = log.where('model', '=', filters.model);
  if (filters.since !== undefined) log = log.where('created_at', '>=', filters.since);
  const [rows, count] = await Promise.all([
    log
      .select(['id', 'request_id', 'user_id', 'route_group', 'method', 'route', 'status', 'gate', 'permission', 'policy', 'source', 'service', 'model', 'action', 'record_id', 'created_at'])
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    log.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((row) => ({ ...row, id: Number(row.id) })), total: Number(count.total) };
}
