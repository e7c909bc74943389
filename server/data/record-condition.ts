import { conditionsOn, ForbiddenError, recordActionPlan } from '@gatehouse/engine';
import type { RawBuilder, SqlBool } from 'kysely';
import { conditionSql } from '../listing/condition-sql.js';
import { NO_NARROWING } from '../listing/build-index-query.js';
import type { TrashedMode } from '../listing/gated-query.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { DataActionContext } from './data-action-context.js';
import { recordStatement } from './find-record.js';

/**
 * A record the caller may see (it was read through their `show` condition) that lies outside their
 * condition on `action` is a 403 naming the conditions, decided by the same SQL as the lists;
 * inside it, the record is admitted for the action and the policy method decides the rest.
 */
export async function assertRecordCondition(context: DataActionContext, model: ModelDefinition, row: LooseRow, trashed: TrashedMode, action: string): Promise<void> {
  if (context.plan(model.slug, action).kind !== 'conditional') return;
  const statement = recordStatement(context.trx, { model, scope: context.scope, trashed, narrowing: NO_NARROWING, reads: 'record', action }, row.id as number);
  const { rows } = await context.trx.executeQuery(statement);
  if (rows.length === 0) {
    throw new ForbiddenError({ gate: 'policy', permission: `${model.slug}.${action}`, conditions: conditionsOn(context.permissions, model.slug, action) });
  }
  context.admit(row, action);
}

/**
 * The caller's conditions on a record action as SQL on the written table, for the write's own
 * WHERE: the record gate reads it through `show` and the action's condition admits it (the
 * action's plan in `authorize`), and the write changes it only while both still hold. Null when
 * they hold for every record, as plain permissions give them: the write is then as before.
 */
export function writeCondition(context: DataActionContext, model: ModelDefinition, action: string): RawBuilder<SqlBool> | null {
  const plan = recordActionPlan(context.plan(model.slug, 'show'), context.plan(model.slug, action));
  return plan.kind === 'conditional' ? conditionSql(plan.condition, model, (slug) => context.registry.get(slug), model.table) : null;
}
