import { sql } from 'kysely';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { LooseSelect, LooseTransaction } from '../models/loose-schema.js';

export type TrashedMode = 'without' | 'only' | 'with';

/**
 * The record gate in SQL: the model's table as the caller may see it. Row-level security already
 * holds the tenant boundary inside the transaction; the model's scope and soft deletes narrow it.
 */
export function gatedQuery(trx: LooseTransaction, model: ModelDefinition, context: ScopeContext, trashed: TrashedMode = 'without'): LooseSelect {
  let query: LooseSelect = trx.selectFrom(model.table);
  if (model.recordScope) query = model.recordScope(query, context);
  if (model.softDeletes && trashed !== 'with') {
    query = query.where(sql.ref('deleted_at'), trashed === 'only' ? 'is not' : 'is', null);
  }
  return query;
}
