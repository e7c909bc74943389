import type { RecordState } from '@gatehouse/engine';
import { sql } from 'kysely';
import type { DataActionContext } from '../data/data-action-context.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { findRecord } from '../data/find-record.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { TrashedMode } from '../listing/gated-query.js';


export const RECORD_STATE_WORDS: Readonly<Record<RecordState, string>> = {
  visible: 'visible',
  not_found: 'not found',
  missing: 'no such record',
  not_in_organization: 'not in this organization',
  hidden_by_scope: 'hidden by a model scope',
  hidden_by_row_security: 'hidden by row-level security',
  trashed: 'in the trash',
  not_trashed: 'not in the trash',
};

export interface RecordGate {
  readonly state: RecordState;
  /** The record, when visible: the policy's record methods read it. */
  readonly row?: LooseRow;
}

/**
 * The record gate as the request meets it (row-level security, the model's scope, the trash),
 * then, for a record it does not find and a caller who may know, which part of the gate hid it:
 * the trash, the model's scope, another organization, row-level security, or nothing at all.
 */
export async function recordGate(context: DataActionContext, model: ModelDefinition, id: number, trashed: TrashedMode, detailed: boolean): Promise<RecordGate> {
  const row = await findRecord(context, model, id, trashed).catch((error: unknown) => {
    if (error instanceof RecordNotFoundError) return undefined;
    throw error;
  });
  if (row !== undefined) return { state: 'visible', row };
  if (!detailed) return { state: 'not_found' };
  const unscoped = await context.trx.selectFrom(model.table).selectAll().where(sql.ref('id'), '=', id).executeTakeFirst();
  if (unscoped !== undefined) return { state: trashState(model, unscoped, trashed) ?? 'hidden_by_scope' };
  if (!model.tenantOwned && model.owner === undefined) return { state: 'missing' };
  const placed = await sql<{ organization_id: number | null }>`SELECT gatehouse_record_organization(${model.table}::regclass, ${id}) AS organization_id`.execute(context.trx);
  const organizationId = placed.rows[0]?.organization_id ?? null;
  if (organizationId === null) return { state: 'missing' };
  return { state: organizationId === context.scope.organizationId ? 'hidden_by_row_security' : 'not_in_organization' };
}

/** The trash keeps a live record from restore, and a deleted one from every other record action. */
function trashState(model: ModelDefinition, row: LooseRow, trashed: TrashedMode): RecordState | undefined {
  if (!model.softDeletes || trashed === 'with') return undefined;
  const deleted = row.deleted_at !== null && row.deleted_at !== undefined;
  if (trashed === 'only' && !deleted) return 'not_trashed';
  if (trashed === 'without' && deleted) return 'trashed';
  return undefined;
}
