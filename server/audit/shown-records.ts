import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DataActionContext } from '../data/data-action-context.js';
import { conditionSql } from '../listing/condition-sql.js';
import type { ModelDefinition } from '../models/define-model.js';

/**
 * Per model slug, for the models whose records the caller may see only some of (`show` with
 * record conditions) or none of, the condition an audit row's record must meet: the record, of
 * this organization, matching the caller's `show` condition, as their record audit reads it.
 * Without it an organization's trail would show the changes of records their record audit
 * answers 404 or 403.
 */
export function shownRecords(context: DataActionContext, models: readonly ModelDefinition[]): Map<string, RawBuilder<SqlBool>> {
  const shown = new Map<string, RawBuilder<SqlBool>>();
  for (const model of models) {
    const plan = context.plan(model.slug, 'show');
    if (plan.kind === 'always') continue;
    if (plan.kind === 'never') {
      shown.set(model.slug, sql<SqlBool>`false`);
      continue;
    }
    const condition = conditionSql(plan.condition, model, (slug) => context.registry.get(slug), model.table);
    shown.set(model.slug, sql<SqlBool>`EXISTS (SELECT 1 FROM ${sql.table(model.table)} WHERE ${sql.ref(`${model.table}.id`)}::text = audit_logs.record_id AND ${condition})`);
  }
  return shown;
}
