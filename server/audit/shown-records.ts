import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DataActionContext } from '../data/data-action-context.js';
import { gatedQuery } from '../listing/gated-query.js';
import type { ModelDefinition } from '../models/define-model.js';
import { auditedTrash } from './audited-trash.js';

/**
 * Per model slug, for the models whose records the caller may see only some of (a `recordScope`,
 * `show` with record conditions, trashed records without the right to see them) or none of, the
 * condition an audit row's record must meet: the record past the record gate its record audit
 * reads it through (the model's scope, the caller's `show` condition, the trash). Without it an
 * organization's trail would show the changes of records their record audit answers 404 or 403.
 */
export function shownRecords(context: DataActionContext, models: readonly ModelDefinition[]): Map<string, RawBuilder<SqlBool>> {
  const shown = new Map<string, RawBuilder<SqlBool>>();
  for (const model of models) {
    const plan = context.plan(model.slug, 'show');
    if (plan.kind === 'never') {
      shown.set(model.slug, sql<SqlBool>`false`);
      continue;
    }
    const trashed = auditedTrash(context, model);
    if (plan.kind === 'always' && !model.recordScope && trashed === 'with') continue;
    const gated = gatedQuery(context.trx, model, context.scope, trashed, plan.kind === 'conditional' ? plan.condition : null);
    const record = gated.select(sql.lit(1).as('shown')).where(sql<SqlBool>`${sql.ref(`${model.table}.id`)}::text = audit_logs.record_id`);
    shown.set(model.slug, sql<SqlBool>`EXISTS (${record})`);
  }
  return shown;
}
