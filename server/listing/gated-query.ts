import { sql } from 'kysely';
import type { ConditionNode } from '@gatehouse/engine';
import { conditionSql } from './condition-sql.js';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { LooseSelect, LooseTransaction } from '../models/loose-schema.js';

export type TrashedMode = 'without' | 'only' | 'with';

/**
 * The record gate in SQL: the model's table as the caller may see it. Row-level security already
 * holds the tenant boundary inside the transaction; the model's scope, the caller's record
 * condition (`access`, its values bound) and soft deletes narrow it.
 */
export function gatedQuery(trx: LooseTransaction, model: ModelDefinition, context: ScopeContext, trashed: TrashedMode = 'without', access: ConditionNode | null = null): LooseSelect {
  let query: LooseSelect = trx.selectFrom(model.table);
  if (model.recordScope) query = model.recordScope(query, context);
  if (access !== null && context.access) query = query.where(conditionSql(access, model, context.access.model, model.table));
  if (model.softDeletes && trashed !== 'with') {
    query = query.where(sql.ref('deleted_at'), trashed === 'only' ? 'is not' : 'is', null);
  }
  return query;
}
