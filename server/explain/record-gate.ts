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

/**
 * How much the record gate says about a record it did not find: `none` (the request's own 404),
 * `organization` (what hid a record of this organization; anything outside it is `missing`, so a
 * member holding `decisions.explain` learns nothing about other organizations) or `operator`
 * (the CLI: another organization and a model scope too).
 */
export type RecordDisclosure = 'none' | 'organization' | 'operator';

export interface RecordGate {
  readonly state: RecordState;
  /** The record, when visible: the policy's record methods read it. */
  readonly row?: LooseRow;
}

const notFound = (error: unknown) => {
  if (error instanceof RecordNotFoundError) return undefined;
  throw error;
};

/**
 * The record gate as the request meets it (row-level security, the model's scope, the trash),
 * then, for a record it does not find and a caller who may know, which part of the gate hid it:
 * the trash, the model's scope, another organization, row-level security, or nothing at all.
 */
export async function recordGate(context: DataActionContext, model: ModelDefinition, id: number, trashed: TrashedMode, disclosure: RecordDisclosure): Promise<RecordGate> {
  const row = await findRecord(context, model, id, trashed).catch(notFound);
  if (row !== undefined) return { state: 'visible', row };
  if (disclosure === 'none') return { state: 'not_found' };
  // The trash is the only part of the gate the same record passes in its other trash mode.
  const inScope = model.softDeletes && trashed !== 'with' ? await findRecord(context, model, id, 'with').catch(notFound) : undefined;
  if (inScope !== undefined) return { state: trashed === 'only' ? 'not_trashed' : 'trashed' };
  const placed = await organizationOf(context, model, id);
  if (disclosure === 'organization' && placed !== context.scope.organizationId) return { state: 'missing' };
  const unscoped = await context.trx.selectFrom(model.table).select(sql.ref('id').as('id')).where(sql.ref('id'), '=', id).executeTakeFirst();
  if (unscoped !== undefined) return { state: 'hidden_by_scope' };
  if (placed === null) return { state: 'missing' };
  return { state: placed === context.scope.organizationId ? 'hidden_by_row_security' : 'not_in_organization' };
}

/** The organization of a tenant-owned record past row-level security; null for a missing record or one no organization owns. */
async function organizationOf(context: DataActionContext, model: ModelDefinition, id: number): Promise<number | null> {
  if (!model.tenantOwned && model.owner === undefined) return null;
  const placed = await sql<{ organization_id: number | null }>`SELECT gatehouse_record_organization(${model.table}::regclass, ${id}) AS organization_id`.execute(context.trx);
  return placed.rows[0]?.organization_id ?? null;
}
