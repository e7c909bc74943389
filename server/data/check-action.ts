import { readableAttribute, type PolicyMethod, type StandardAction } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';
import type { RawQuery } from '../listing/query-parameter.js';
import { gateListing, gateRecord, gateShow, gateStore, gateUpdate } from './action-gates.js';
import type { DataActionContext } from './data-action-context.js';
import { policyRefusal, refusalOf, type Refusal } from './refusal-reason.js';

/** One question of `POST {t}/authorize`: may the caller do `action` on `model` (its record `id`)? */
export interface ActionCheck {
  model: string;
  action: string;
  id?: number | string | undefined;
  fields?: { read?: readonly string[] | undefined; write?: readonly string[] | undefined } | undefined;
  include?: readonly string[] | undefined;
}

export type CheckResult = { allowed: true } | ({ allowed: false } & Refusal);

interface ActionGate {
  /** The policy method that guards the action, for the reason of its refusal. */
  method: PolicyMethod;
  /** Record actions are about one record: without an id there is no request to answer. */
  record: boolean;
  run(context: DataActionContext, model: ModelDefinition, check: ActionCheck): Promise<unknown>;
}

/** The query string the same request would carry: its includes, and the fields it asks to read. */
function queryOf({ include = [], fields = {} }: ActionCheck): RawQuery {
  const read = fields.read ?? [];
  return { ...(include.length > 0 ? { include: include.join(',') } : {}), ...(read.length > 0 ? { fields: read.join(',') } : {}) };
}

/** The body the same request would carry, as far as the write list sees it: its keys. */
const bodyOf = ({ fields = {} }: ActionCheck) => Object.fromEntries((fields.write ?? []).map((field) => [field, null]));

const listing = (trashed: 'without' | 'only'): ActionGate['run'] => async (context, model, check) => gateListing(context, model, queryOf(check), trashed);

const record = (method: Exclude<Parameters<typeof gateRecord>[3], 'update'>): ActionGate => ({
  method,
  record: true,
  run: (context, model, check) => gateRecord(context, model, check.id, method),
});

/** Each standard action's gates, the very ones its data route opens with. */
const ACTION_GATES: Readonly<Record<StandardAction, ActionGate>> = {
  index: { method: 'viewAny', record: false, run: listing('without') },
  trashed: { method: 'viewTrashed', record: false, run: listing('only') },
  show: { method: 'view', record: true, run: (context, model, check) => gateShow(context, model, check.id, queryOf(check)) },
  store: { method: 'create', record: false, run: async (context, model, check) => gateStore(context, model, bodyOf(check)) },
  update: { method: 'update', record: true, run: (context, model, check) => gateUpdate(context, model, check.id, bodyOf(check)) },
  destroy: record('delete'),
  restore: record('restore'),
  forceDelete: record('forceDelete'),
};

const isStandardAction = (action: string): action is StandardAction => Object.hasOwn(ACTION_GATES, action);

const refused = (refusal: Refusal): CheckResult => ({ allowed: false, ...refusal });

/**
 * Fields a listing or a show would leave out of what the caller reads: the request succeeds
 * without them, so asking to read them is refused with the fields named.
 */
function unreadable(context: DataActionContext, model: ModelDefinition, check: ActionCheck): CheckResult | null {
  const readable = readableAttribute(context.policyFor(model), context.user);
  const fields = (check.fields?.read ?? []).filter((field) => !readable(field));
  return fields.length > 0 ? refused({ message: `You are not allowed to read the following field(s): ${fields.join(', ')}`, reason: { gate: 'fields', fields } }) : null;
}

/**
 * Runs a check through the gates of the action's data route, in the caller's tenant transaction:
 * allowed exactly when the request would pass them, else the refusal it would answer.
 */
export async function checkAction(context: DataActionContext, check: ActionCheck): Promise<CheckResult> {
  if (!isStandardAction(check.action)) return refused({ message: `Unknown action: ${check.action}.`, reason: { gate: 'action' } });
  const gate = ACTION_GATES[check.action];
  if (gate.record && check.id === undefined) return refused({ message: `The action ${check.action} is about one record: give its id.`, reason: { gate: 'record' } });
  let model: ModelDefinition | undefined;
  try {
    model = context.model(check.model);
    await gate.run(context, model, check);
  } catch (error) {
    return refused(refusalOf(error, () => policyRefusal(context.policyFor(model!), gate.method)));
  }
  return unreadable(context, model, check) ?? { allowed: true };
}
