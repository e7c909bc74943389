import type { RecordState } from '@gatehouse/engine';
import { sql } from 'kysely';
import type { DataActionContext } from '../data/data-action-context.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { findRecord } from '../data/find-record.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { TrashedMode } from '../listing/gated-query.js';
import { probeRecord } from './record-condition-verdict.js';

export const RECORD_STATE_WORDS: Readonly<Record<RecordState, string>> = {
  visible: 'visible',
  not_found: 'not found',
  missing: 'no such record',
  not_in_organization: 'not in this organization',
  hidden_by_scope: 'hidden by a model scope',
  hidden_by_row_security: 'hidden by row-level security',
  outside_condition: "outside the member's record conditions",
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
 * The record gate as the request meets it (row-level security, the model's scope, the trash, the
 * member's record conditions on `action`: `show` for a record, `index`/`trashed` for a list's),
 * then, for a record it does not find and a caller who may know, which part of the gate hid it:
 * the conditions, the trash, the model's scope, another organization, row-level security, or
 * nothing at all. The conditions are told only of a record of this organization.
 */
export async function recordGate(context: DataActionContext, model: ModelDefinition, id: number, trashed: TrashedMode, disclosure: RecordDisclosure, action = 'show'): Promise<RecordGate> {
  const row = action === 'show' ? await findRecord(context, model, id, trashed).catch(notFound) : await listed(context, model, id, trashed, action);
  if (row !== undefined) return { state: 'visible', row };
  if (disclosure === 'none') return { state: 'not_found' };
  const probe = { context, model, id, trashed };
  if (context.plan(model.slug, action).kind === 'conditional' && (await probeRecord(probe, action, null))) return { state: 'outside_condition' };
  // The trash is the only part of the gate the same record passes in its other trash mode, the
  // member's conditions aside: a trashed record outside them is in the trash, not behind a scope.
  if (model.softDeletes && trashed !== 'with' && (await probeRecord({ ...probe, trashed: 'with' }, action, null))) return { state: trashed === 'only' ? 'not_trashed' : 'trashed' };
  const placed = await organizationOf(context, model, id);
  if (disclosure === 'organization' && placed !== context.scope.organizationId) return { state: 'missing' };
  const unscoped = await context.trx.selectFrom(model.table).select(sql.ref('id').as('id')).where(sql.ref('id'), '=', id).executeTakeFirst();
  if (unscoped !== undefined) return { state: 'hidden_by_scope' };
  if (placed === null) return { state: 'missing' };
  return { state: placed === context.scope.organizationId ? 'hidden_by_row_security' : 'not_in_organization' };
}

/** The record as the list of `action`, its gates passed, holds it: through the member's condition on it, if any. */
async function listed(context: DataActionContext, model: ModelDefinition, id: number, trashed: TrashedMode, action: string): Promise<LooseRow | undefined> {
  const plan = context.plan(model.slug, action);
  const probe = { context, model, id, trashed };
  return (await probeRecord(probe, action, plan.kind === 'conditional' ? plan.condition : null)) ? { id } : undefined;
}

/** The organization of a tenant-owned record past row-level security; null for a missing record or one no organization owns. */
async function organizationOf(context: DataActionContext, model: ModelDefinition, id: number): Promise<number | null> {
  if (!model.tenantOwned && model.owner === undefined) return null;
  const placed = await sql<{ organization_id: number | null }>`SELECT gatehouse_record_organization(${model.table}::regclass, ${id}) AS organization_id`.execute(context.trx);
  return placed.rows[0]?.organization_id ?? null;
}
