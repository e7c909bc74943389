import { POLICY_ACTIONS, type PolicyMethod } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import { parseEndpointParameters } from '../listing/parse-endpoint-parameters.js';
import type { ParsedQuery } from '../listing/parsed-query.js';
import type { RawQuery } from '../listing/query-parameter.js';
import type { DataActionContext } from './data-action-context.js';
import { findRecord, requireSoftDeletes } from './find-record.js';
import { gateQueriedFields } from './queried-fields-gate.js';
import { assertRecordCondition } from './record-condition.js';
import { requireObjectBody } from './validate-body.js';
import { writableBody } from './writable-fields.js';
import type { TrashedMode } from '../listing/gated-query.js';

/*
 * The gates every data action passes before it reads or writes: the record gate (row-level
 * security, model scopes, soft deletes), the policy method with its overrides, the write list and
 * the include hops. The data actions open with them and `POST {t}/authorize` runs them alone, so
 * an authorize answer is the request's own.
 */

/**
 * Index and trashed: the trash must exist, the policy allow the listing, the filters, sort and
 * search read only readable fields, every include hop be indexable.
 */
export function gateListing(context: DataActionContext, model: ModelDefinition, raw: RawQuery, trashed: 'without' | 'only'): ParsedQuery {
  if (trashed === 'only') requireSoftDeletes(model);
  const query = parseEndpointParameters(context.registry, model, raw);
  context.authorize(model, trashed === 'only' ? 'viewTrashed' : 'viewAny');
  gateQueriedFields(context, model, query, raw);
  context.authorizeIncludes(model, query.includes);
  return query;
}

/**
 * Show: the record behind the gate, narrowed by the query's filters, that the policy lets the
 * caller view. The filters read only readable fields, checked before the record: whether it is
 * found would tell the value.
 */
export async function gateShow(context: DataActionContext, model: ModelDefinition, id: unknown, raw: RawQuery): Promise<{ row: LooseRow; query: ParsedQuery }> {
  const query = parseEndpointParameters(context.registry, model, raw, 'show');
  gateQueriedFields(context, model, query, raw);
  const row = await findRecord(context, model, id, 'without', query);
  context.authorize(model, 'view', row);
  context.authorizeIncludes(model, query.includes);
  return { row, query };
}

export type RecordMethod = Extract<PolicyMethod, 'update' | 'delete' | 'restore' | 'forceDelete'>;

/** Where each record action looks for its record: restore in the trash, force delete anywhere. */
export const RECORD_TRASH: Readonly<Record<RecordMethod, TrashedMode>> = { update: 'without', delete: 'without', restore: 'only', forceDelete: 'with' };

/** A record action's record behind the record gate, once the policy method allows the action on it. */
export async function gateRecord(context: DataActionContext, model: ModelDefinition, id: unknown, method: RecordMethod): Promise<LooseRow> {
  const row = await findRecord(context, model, id, RECORD_TRASH[method]);
  await assertRecordCondition(context, model, row, RECORD_TRASH[method], POLICY_ACTIONS[method]);
  context.authorize(model, method, row);
  return row;
}

/** Store: the policy allows creating, and the body sets only fields the write list holds; returns the body to write. */
export function gateStore(context: DataActionContext, model: ModelDefinition, rawBody: unknown): LooseRow {
  context.authorize(model, 'create');
  return writableBody(model, context.policyFor(model), context.user, requireObjectBody(rawBody), 'create');
}

/** Update: the record passes `gateRecord`, and the body sets only fields the update list holds. */
export async function gateUpdate(context: DataActionContext, model: ModelDefinition, id: unknown, rawBody: unknown): Promise<{ before: LooseRow; body: LooseRow }> {
  const before = await gateRecord(context, model, id, 'update');
  return { before, body: writableBody(model, context.policyFor(model), context.user, requireObjectBody(rawBody), 'update') };
}
