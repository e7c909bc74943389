import { sql, type CompiledQuery } from 'kysely';
import { isStoredInteger } from '../models/integer-range.js';
import { BadRequestError } from '../errors/bad-request-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import { NO_NARROWING } from '../listing/build-index-query.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import { boundQuery, selectionStatement, type BoundQuery, type Selection, type SelectionQuery, type SelectionStatement } from '../listing/selection-statement.js';
import type { BoundValues } from '../db/statements/bound-values.js';
import type { DataActionContext } from './data-action-context.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { type TrashedMode } from '../listing/gated-query.js';

/** A record's id as a path segment writes it: digits (leading zeros allowed), at most as many as a stored integer has. */
export const RECORD_ID_TEXT = /^\d{1,10}$/;

/** Keys are positive integers; anything else is the caller's mistake, not a missing row. */
export function parseRecordId(raw: unknown): number {
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && RECORD_ID_TEXT.test(raw) ? Number(raw) : NaN;
  if (!isStoredInteger(id) || id < 1) throw new BadRequestError(`Invalid id: ${String(raw)}.`);
  return id;
}

/** Trash endpoints exist only for models that keep deleted rows. */
export function requireSoftDeletes(model: ModelDefinition): void {
  if (!model.softDeletes) throw new NotFoundError(`Model ${model.slug} does not use soft deletes.`);
}

/** One record by its key, behind the record gate. */
const RECORD_ROW: SelectionQuery<{ id: number }> = { query: (selected, { id }) => selected.selectAll().where(sql.ref('id'), '=', id) };
const RECORD: SelectionStatement<{ id: number }> = { build: (selected, shape, trx) => RECORD_ROW.query(selected, shape, trx).compile() };

/** The statement of one record by its key behind the record gate of `selection`. */
export function recordStatement(trx: LooseTransaction, selection: Selection, id: number): CompiledQuery {
  return selectionStatement(trx, selection, RECORD, (bound) => ({ id: bound.bind(id) }));
}

/** The same record as a subquery of the statements that read from it (include hops). */
export function recordRow(trx: LooseTransaction, selection: Selection, id: number): (bound: BoundValues) => BoundQuery {
  return (bound) => boundQuery(trx, selection, RECORD_ROW, (own) => ({ id: own.bind(id) }), bound);
}

/** The record behind the record gate, or the same 404 whether it is missing, foreign, hidden or not matching. */
export async function findRecord(context: DataActionContext, model: ModelDefinition, rawId: unknown, trashed: TrashedMode = 'without', narrowing = NO_NARROWING): Promise<LooseRow> {
  if (trashed !== 'without') requireSoftDeletes(model);
  const id = parseRecordId(rawId);
  const { rows } = await context.trx.executeQuery<LooseRow>(recordStatement(context.trx, { model, scope: context.scope, trashed, narrowing, reads: 'record' }, id));
  if (!rows[0]) throw new RecordNotFoundError();
  // Read through the caller's show condition: the policy takes that answer for the record.
  if (context.plan(model.slug, 'show').kind === 'conditional') context.admit(rows[0], 'show');
  return rows[0];
}
