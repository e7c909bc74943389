import { listAuditLogs } from '../db/repositories/audit-logs.js';
import { dataActionContextFromRequest } from '../data/data-action-context-from-request.js';
import { paginated } from '../data/paginated.js';
import { pagination } from '../data/read-actions.js';
import { recordSerializer } from '../data/serialize-record.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { LooseRow } from '../models/loose-schema.js';
import { readAuditTrailQuery } from './audit-trail-query.js';
import { readableChanges } from './readable-changes.js';
import { shownRecords } from './shown-records.js';

/**
 * `GET {t}/audit`: the organization's whole trail, newest first. A registered model's values pass
 * through the caller's read gate for that model, as its record audit does; administration rows
 * (memberships, role permissions) hold only permission lists and roles. An update of fields the
 * caller may not read is left out, as its record audit leaves it out, and so is every change of a
 * record outside the caller's record gate (the model's scope, their record conditions, the
 * trash), which their record audit answers 404.
 */
export function organizationAuditTrail(registry: ModelRegistry | undefined): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const { filters, page } = readAuditTrailQuery(ctx);
    const context = registry && dataActionContextFromRequest(ctx, registry);
    const serializer = context && recordSerializer(context);
    const readable = serializer && readableChanges(serializer, registry!.models);
    const shown = context && shownRecords(context, registry!.models);
    const { rows, total } = await listAuditLogs(ctx.state.trx, ctx.state.organization.id, { ...filters, readable, shown }, page);
    const reader = serializer?.reader;
    const gate = (model: string, values: unknown) => {
      if (values === null || !reader || !registry!.has(model)) return values;
      return reader(registry!.get(model))(values as LooseRow);
    };
    const data = rows.map(({ user_name, ...row }) => ({
      ...row,
      id: Number(row.id),
      user: row.user_id === null ? null : { id: row.user_id, name: user_name },
      old_values: gate(row.model, row.old_values),
      new_values: gate(row.model, row.new_values),
    }));
    ctx.body = paginated(ctx, { data, pagination: pagination(page, total) });
  };
}
