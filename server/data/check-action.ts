import { type GatehouseAbility, type PolicyMethod, type StandardAction } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';
import type { RawQuery } from '../listing/query-parameter.js';
import { gateListing, gateRecord, gateShow, gateStore, gateUpdate } from './action-gates.js';
import type { DataActionContext } from './data-action-context.js';
import { policyRefusal, refusalOf, type Refusal } from './refusal-reason.js';
import { parseEndpointParameters, refuseQueryParameters } from '../listing/parse-endpoint-parameters.js';

/** One question of `POST {t}/authorize`: may the caller do `action` on `model` (its record `id`)? */
export interface ActionCheck {
  model: string;
  action: string;
  id?: number | string | undefined;
  fields?: { read?: readonly string[] | undefined; write?: readonly string[] | undefined } | undefined;
  include?: readonly string[] | undefined;
}

/**
 * A check whose request another route answers instead of the data route (`GET {t}/roles` is a
 * tenant route, not the roles index): the model and action it stands for, and how that route
 * decides it.
 */
export interface ServedCheck {
  readonly model: string;
  readonly action: string;
  /** Throws the refusal the route answers with; returns when the route would answer it. */
  decide(ability: GatehouseAbility, check: ActionCheck): void;
}

export type CheckResult = { allowed: true; hidden_fields?: string[] } | ({ allowed: false } & Refusal);

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

/** A delete's route answers nothing and takes no query parameters: a check asking it for includes or fields to read is its 400. */
const answeringNothing = (gate: ActionGate): ActionGate => ({
  ...gate,
  run: async (context, model, check) => {
    refuseQueryParameters(queryOf(check));
    return gate.run(context, model, check);
  },
});

/**
 * A write answering its record: the includes of its answer are authorized after its own gates (its
 * write fields), as its request does; fields to read are its 400.
 */
const answeringRecord = (gate: ActionGate): ActionGate => ({
  ...gate,
  run: async (context, model, check) => {
    const { includes } = parseEndpointParameters(context.registry, model, queryOf(check), 'write');
    await gate.run(context, model, check);
    context.authorizeIncludes(model, includes);
  },
});

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
  store: answeringRecord({ method: 'create', record: false, run: async (context, model, check) => gateStore(context, model, bodyOf(check)) }),
  update: answeringRecord({ method: 'update', record: true, run: (context, model, check) => gateUpdate(context, model, check.id, bodyOf(check)) }),
  destroy: answeringNothing(record('delete')),
  restore: answeringRecord(record('restore')),
  forceDelete: answeringNothing(record('forceDelete')),
};

export const isStandardAction = (action: string): action is StandardAction => Object.hasOwn(ACTION_GATES, action);

/** Whether an action is about one record, so its request reads the record through `show` before the action's own gates. */
export const isRecordAction = (action: StandardAction): boolean => ACTION_GATES[action].record;

const refused = (refusal: Refusal): CheckResult => ({ allowed: false, ...refusal });

/**
 * The answer to a check that passed every gate. A read leaves out the fields the caller may not
 * read and still succeeds, so asking to read them is allowed, with the fields named.
 */
function passed(context: DataActionContext, model: ModelDefinition, check: ActionCheck): CheckResult {
  const readable = context.readable(model);
  const hidden = (check.fields?.read ?? []).filter((field) => !readable(field));
  return hidden.length > 0 ? { allowed: true, hidden_fields: hidden } : { allowed: true };
}

/** The caller's ability and the checks other routes answer: what a check answered as its route decides needs. */
export interface ServedBy {
  readonly ability: GatehouseAbility;
  readonly checks: readonly ServedCheck[];
}

/** A check answered as the route that serves its request decides it. */
function servedCheck(served: ServedCheck, ability: GatehouseAbility, check: ActionCheck): CheckResult {
  try {
    served.decide(ability, check);
  } catch (error) {
    return refused(refusalOf(error, () => ({ gate: 'policy' })));
  }
  return { allowed: true };
}

/**
 * Runs a check through the gates of the route that answers its request, in the caller's tenant
 * transaction: the data route of the action, or the route that serves it instead (`servedBy`).
 * Allowed exactly when the request would pass them, else the refusal it would answer.
 */
export async function checkAction(context: DataActionContext, check: ActionCheck, servedBy?: ServedBy): Promise<CheckResult> {
  const served = servedBy?.checks.find((candidate) => candidate.model === check.model && candidate.action === check.action);
  if (served !== undefined) return servedCheck(served, servedBy!.ability, check);
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
  return passed(context, model, check);
}
