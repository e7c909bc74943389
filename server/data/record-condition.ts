import { conditionsOn, ForbiddenError } from '@gatehouse/engine';
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
