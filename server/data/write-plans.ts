import { sql, type CompiledQuery } from 'kysely';
import type { ReadAhead } from '../db/transactions/read-ahead.js';
import { NO_NARROWING } from '../listing/build-index-query.js';
import { readsCallerContext, selectionStatement, type Selection, type SelectionStatement } from '../listing/selection-statement.js';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import { isStoredInteger } from '../models/integer-range.js';
import type { LooseTransaction } from '../models/loose-schema.js';
import { RECORD_TRASH, type RecordMethod } from './action-gates.js';
import { parseRecordId, recordStatement } from './find-record.js';
import type { PlannedRead } from './read-actions.js';

/*
 * What a write reads before it writes, planned from the request alone (its path and its body)
 * and sent with the request's opening (`tenancy/request-reads.ts`): the record its gate reads,
 * and the owner parent its body names. The write then runs as when it reads them itself; what it
 * does not read (a refused caller, a body that fails validation) is never answered.
 */

/**
 * The owner parent's organization, behind the parent's record gate, locked FOR SHARE until the
 * child commits. The foreign key's own lock (FOR KEY SHARE) does not wait for a change of other
 * columns, so a soft delete, or a change that takes the parent out of the creator's condition,
 * could commit between this read and the insert. FOR SHARE waits for such a change and reads the
 * parent again once it has committed; other children's creates share the lock.
 */
const OWNER: SelectionStatement<{ id: unknown }> = { build: (selected, { id }) => selected.select('organization_id').where(sql.ref('id'), '=', id).forShare().compile() };

const parentSelection = (parent: ModelDefinition, scope: ScopeContext): Selection => ({ model: parent, scope, trashed: 'without', narrowing: NO_NARROWING, reads: 'record' });

/** The statement of a child's owner parent (`id`, its foreign key's value) behind the parent's record gate. */
export function ownerStatement(trx: LooseTransaction, parent: ModelDefinition, scope: ScopeContext, id: unknown): CompiledQuery {
  return selectionStatement(trx, parentSelection(parent, scope), OWNER, (bound) => ({ id: bound.bind(id) }));
}

/**
 * The owner parent a body names, when its statement can be sent ahead: only a key that fits the
 * column, since a statement that fails ahead of the write would abort its transaction. Any other
 * value is the validation's to refuse, or is read when the write gets to it.
 */
function ownerReads({ db, registry, model, scope }: PlannedRead, body: unknown): CompiledQuery[] {
  if (!model.owner || typeof body !== 'object' || body === null) return [];
  const id = (body as Record<string, unknown>)[model.owner.foreignKey];
  const parent = registry.get(model.owner.model);
  if (typeof id !== 'number' || !isStoredInteger(id) || readsCallerContext(parentSelection(parent, scope))) return [];
  return [ownerStatement(db, parent, scope, id)];
}

/** What storeRecord reads: the owner parent its body names, if any. */
export function planStore(read: PlannedRead, body: unknown): ReadAhead {
  return { statements: ownerReads(read, body), complete: false };
}

/** What a record action reads: its record, as gateRecord reads it, and (for an update) the owner parent its body names. */
export function planRecordWrite(read: PlannedRead, id: string, method: RecordMethod, body?: unknown): ReadAhead | null {
  const { db, model, scope } = read;
  const trashed = RECORD_TRASH[method];
  if (trashed !== 'without' && !model.softDeletes) return null;
  const selection: Selection = { model, scope, trashed, narrowing: NO_NARROWING, reads: 'record' };
  if (readsCallerContext(selection)) return null;
  return { statements: [recordStatement(db, selection, parseRecordId(id)), ...ownerReads(read, body)], complete: false };
}
