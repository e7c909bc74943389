import { sql } from 'kysely';
import { isStoredInteger } from '../db/integer-range.js';
import { BadRequestError } from '../http/errors/bad-request-error.js';
import { NotFoundError } from '../http/errors/not-found-error.js';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import { gatedQuery, type TrashedMode } from '../query/build-index-query.js';
import type { LooseRow, LooseSelect, LooseTransaction } from '../query/loose-schema.js';
import type { DataContext } from './data-context.js';
import { RecordNotFoundError } from './data-errors.js';

/** Keys are positive integers; anything else is the caller's mistake, not a missing row. */
export function parseRecordId(raw: unknown): number {
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!isStoredInteger(id) || id < 1) throw new BadRequestError(`Invalid id: ${String(raw)}.`);
  return id;
}

/** Trash endpoints exist only for models that keep deleted rows. */
export function requireSoftDeletes(model: ModelDefinition): void {
  if (!model.softDeletes) throw new NotFoundError(`Model ${model.slug} does not use soft deletes.`);
}

/** Further conditions a record must meet, such as a show request's filters. */
export type Narrowing = (query: LooseSelect) => LooseSelect;

/** The statement that reads one record through the record gate. */
export function recordStatement(trx: LooseTransaction, model: ModelDefinition, scope: ScopeContext, id: number, trashed: TrashedMode = 'without', narrow?: Narrowing) {
  const gated = gatedQuery(trx, model, scope, trashed);
  return (narrow ? narrow(gated) : gated).selectAll().where(sql.ref('id'), '=', id);
}

/** The record behind the record gate, or the same 404 whether it is missing, foreign, hidden or not matching. */
export async function findRecord(context: DataContext, model: ModelDefinition, rawId: unknown, trashed: TrashedMode = 'without', narrow?: Narrowing): Promise<LooseRow> {
  if (trashed !== 'without') requireSoftDeletes(model);
  const row = await recordStatement(context.trx, model, context.scope, parseRecordId(rawId), trashed, narrow).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return row;
}
