import {
  allowedListPlan,
  conditionContext,
  explainPermission,
  ForbiddenIncludeError,
  GATE_STATUS,
  policyMethodFor,
  readableAttribute,
  type Decision,
  type GatehouseAbility,
  type DecisionCheck as Check,
  type PolicyExplanation,
  type StandardAction,
  type ConditionCatalog,
  type ConditionContext,
  type RecordState,
} from '@gatehouse/engine';
import { sql } from 'kysely';
import type { ServedCheck } from '../data/check-action.js';
import { createDataActionContext, type DataActionContext, type DataPolicy } from '../data/data-action-context.js';
import { DATA_ROUTES, modelHas, type DataRoute } from '../routes/data-routes.js';
import { decideWrite } from '../data/writable-fields.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import { loose } from '../db/transactions/tenant-transaction.js';
import type { RouteGroup } from '../models/route-group.js';

import { includePaths } from '../listing/parameters/include.js';
import { refuseQueryParameters } from '../listing/parse-endpoint-parameters.js';
import { ACTION_RULE, ID_RULE, isModelRequest, type ExplainInput, type ModelRequest } from './explain-schema.js';
import type { ExplainedMember } from './explained-member.js';
import { RECORD_STATE_WORDS, recordGate, type RecordDisclosure } from './record-gate.js';
import { conditionVerdict, verdictCheck, type ConditionVerdict, type RecordProbe } from './record-condition-verdict.js';
import type { TrashedMode } from '../listing/gated-query.js';
import type { ServiceResource } from '../permissions/service-resources.js';
import { explainResource } from './explain-resource.js';

// The record gate of each record action, as its handler reads it.
const TRASHED: Partial<Record<StandardAction, TrashedMode>> = { show: 'without', update: 'without', destroy: 'without', restore: 'only', forceDelete: 'with' };
const WRITES: Partial<Record<StandardAction, 'create' | 'update'>> = { store: 'create', update: 'update' };
// The reads, whose fields are the ones they read (a write's are the ones it sets).
const READING: readonly StandardAction[] = ['index', 'show', 'trashed'];
// The lists, and the trash mode of the records each holds.
const LISTS: Partial<Record<StandardAction, TrashedMode>> = { index: 'without', trashed: 'only' };

/** Where the explained request is made: the tenant transaction, the models, the group and organization. */
export interface DecisionScene {
  readonly trx: TenantTransaction;
  readonly registry: ModelRegistry | undefined;
  readonly group: RouteGroup;
  readonly organization: { readonly id: number; readonly slug: string };
  readonly membershipEnforcement: boolean;
  /** The data base of the request, `/api/acme`. */
  readonly base: string;
  /** Whose context the transaction returns to afterwards (the caller; none for the CLI). */
  readonly callerId: number | null;
  /** How much the record gate may say about why it hid a record. */
  readonly disclosure: RecordDisclosure;
  /** The checks a tenant route answers instead of the data route (`GET {t}/roles`). */
  readonly served: readonly ServedCheck[];
  /** The resources of other services, configured and registered: `authorize` answers their checks. */
  readonly resources: readonly ServiceResource[];
}

/**
 * The explained request's model, route and include paths. An include past the request's limits
 * is the 400 the request answers before any gate (`listing/parameters/include.ts`).
 */
function served(scene: DecisionScene, input: ModelRequest): { model: ModelDefinition; route: DataRoute; includes: string[] | null } {
  const { registry } = scene;
  if (!registry || !scene.group.models.includes(input.model)) throw ValidationError.field('model', `The model ${input.model} is not served here.`);
  const model = registry.get(input.model);
  const route = DATA_ROUTES.find((candidate) => candidate.operation === input.action)!;
  if (TRASHED[input.action] !== undefined && input.id === undefined) throw ValidationError.field('id', `The id field is required for ${input.action}.`);
  // A delete answers nothing and takes no query parameters: its includes are the 400 its request answers.
  if (route.query === 'none' && input.include !== undefined) refuseQueryParameters({ include: input.include.join(',') });
  const includes = route.query !== 'none' && input.include !== undefined ? includePaths('include', input.include.join(',')) : null;
  return { model, route, includes };
}

function policyWords({ allowed, permission, permission_held, refused_by }: PolicyExplanation): string {
  if (allowed) return `holds ${permission}`;
  return permission_held && refused_by !== null ? `refused by ${refused_by}` : `lacks ${permission}`;
}

/**
 * The member's request, decided the way the data routes decide it, gate by gate in the
 * documented order, stopping at the first that refuses: authentication, route group,
 * organization and membership (the explained member passed all four to be one), the record gate
 * for a record action, the action policy with its permission, the write fields, the includes.
 */
export async function explainDecision(scene: DecisionScene, member: ExplainedMember, input: ExplainInput): Promise<Decision> {
  const { group, organization } = scene;
  const caller = { user: member.user, organization, routeGroup: group.name };
  const compiled = scene.registry
    ? compiledPermissions(member.sources, { catalog: scene.registry.conditions, context: conditionContext(caller) })
    : compiledPermissions(member.sources);
  const { ability } = compiled;
  const checks: Check[] = [
    { gate: 'authentication', passed: true, detail: member.self ? 'signed in' : 'explained as signed in' },
    { gate: 'route_group', passed: true, detail: scene.membershipEnforcement ? `a member of the ${group.name} route group` : 'membership enforcement is off' },
    { gate: 'organization', passed: true, detail: organization.slug },
    { gate: 'membership', passed: true, detail: `${member.role} of ${organization.slug}` },
  ];
  const resource = scene.group.models.includes(input.model) ? undefined : scene.resources.find((candidate) => candidate.resource === input.model);
  if (resource !== undefined) {
    const decided = explainResource(ability, member, resource, input);
    checks.push(decided.check);
    return {
      allowed: decided.reason === undefined,
      gate: decided.reason === undefined ? null : decided.check.gate,
      // The check's own answer: authorize answers it in a 200.
      status: decided.reason === undefined ? 200 : GATE_STATUS[decided.check.gate],
      user: { ...member.user, role: member.role },
      request: { method: 'POST', route: `${scene.base}/authorize`, ...requested(input) },
      checks,
      ...(decided.reason === undefined ? {} : { reason: decided.reason }),
    };
  }
  if (typeof input.id === 'string') throw ValidationError.field('id', ID_RULE);
  if (!isModelRequest(input)) throw ValidationError.field('action', ACTION_RULE);
  const shadow = scene.served.find((check) => check.model === input.model && check.action === input.action);
  let route: DataRoute;
  if (shadow !== undefined) {
    route = DATA_ROUTES.find((candidate) => candidate.operation === input.action)!;
    decideServed(shadow, ability, input, checks);
  } else {
    const found = served(scene, input);
    route = found.route;
    const context = createDataActionContext({
      trx: loose(scene.trx),
      registry: scene.registry!,
      policy: { ...caller, ability, role: member.role },
      served: group.models,
      plan: compiled.plan,
      permissions: compiled.permissions,
    });
    // The member's own context, so row-level security and scopes that read the user see them.
    await setUserContext(context, member.user.id);
    try {
      const conditions = { catalog: scene.registry!.conditions, facts: conditionContext(caller) };
      await decide(context, found.model, route, { input, includes: found.includes, conditions }, member, scene.disclosure, checks);
    } finally {
      await setUserContext(context, scene.callerId);
    }
  }
  const path = `${scene.base}${route.path.replace(':model', input.model).replace(':id', String(input.id ?? ''))}`;
  const refused = checks.find((check) => !check.passed);
  return {
    allowed: refused === undefined,
    gate: refused?.gate ?? null,
    status: refused === undefined ? route.status : GATE_STATUS[refused.gate],
    user: { ...member.user, role: member.role },
    request: { method: route.method.toUpperCase(), route: path, ...requested(input) },
    checks,
  };
}

/** The explained request as the caller gave it. */
function requested(input: ExplainInput) {
  return {
    model: input.model,
    action: input.action,
    ...(input.id === undefined ? {} : { id: input.id }),
    ...(input.fields === undefined ? {} : { fields: input.fields }),
    ...(input.include === undefined ? {} : { include: input.include }),
  };
}

/**
 * A check the tenant route answers instead of the data route: any member passes its own rules,
 * and what it refuses (an include hop without its index permission) is refused as it does.
 */
function decideServed(shadow: ServedCheck, ability: GatehouseAbility, input: ModelRequest, checks: Check[]): void {
  try {
    shadow.decide(ability, { model: input.model, action: input.action, include: input.include });
  } catch (error) {
    if (!(error instanceof ForbiddenIncludeError)) throw error;
    checks.push({ gate: 'include', passed: false, detail: `may not include ${error.path}${error.permission === undefined ? '' : `: lacks ${error.permission}`}` });
    return;
  }
  checks.push({ gate: 'administration', passed: true, detail: `answered by the tenant route, open to every member${input.include === undefined ? '' : '; every include allowed'}` });
}

async function decide(
  context: DataActionContext,
  model: ModelDefinition,
  route: DataRoute,
  { input, includes, conditions }: { input: ModelRequest; includes: string[] | null; conditions: RecordConditionScene },
  member: ExplainedMember,
  disclosure: RecordDisclosure,
  checks: Check[],
): Promise<void> {
  // The request answers 404 before any gate reads the record or the policy, whoever asks.
  if (!modelHas(model, route)) {
    checks.push({ gate: 'record', passed: false, detail: `${model.slug} does not use soft deletes` });
    return;
  }
  const trashed = TRASHED[input.action];
  let row: Record<string, unknown> | undefined;
  let conditionOfAction: NamedCondition = {};
  const verdict = (probe: RecordProbe, action: string) => conditionVerdict(probe, action, conditions.catalog, conditions.facts);
  if (trashed !== undefined) {
    const gate = await recordGate(context, model, input.id!, trashed, disclosure);
    const named = await namedCondition(gate.state, () => verdict({ context, model, id: input.id!, trashed }, 'show'));
    checks.push({ gate: 'record', passed: gate.state === 'visible', ...named, detail: joined(RECORD_STATE_WORDS[gate.state], named.detail), record: gate.state });
    if (gate.row === undefined) return;
    row = gate.row;
    if (input.action !== 'show') {
      // A record the member may see but whose action condition leaves it out is the request's 403.
      const acted = await verdict({ context, model, id: input.id!, trashed }, input.action);
      if (acted !== undefined && !acted.admitted) {
        const permission = `${model.slug}.${input.action}`;
        checks.push({ gate: 'policy', passed: false, ...verdictCheck(acted), permission: explainPermission(member.sources, permission) });
        return;
      }
      if (acted !== undefined) conditionOfAction = verdictCheck(acted);
    }
  }
  const policy: DataPolicy = context.policyFor(model);
  const explained = policy.explain(policyMethodFor(input.action)!, member.user, row);
  const plan = context.plan(model.slug, input.action);
  const listPlan = LISTS[input.action] !== undefined ? { plan: explained.allowed ? allowedListPlan(plan) : plan } : {};
  checks.push({ gate: 'policy', passed: explained.allowed, ...conditionOfAction, detail: joined(policyWords(explained), conditionOfAction.detail), policy: explained, permission: explainPermission(member.sources, explained.permission), ...listPlan });
  if (!explained.allowed) return;
  const list = LISTS[input.action];
  if (list !== undefined && input.id !== undefined) {
    // Whether the record is in the list the request answers, and why: the list itself is allowed either way.
    const gate = await recordGate(context, model, input.id, list, disclosure, input.action);
    const named = await namedCondition(gate.state, () => verdict({ context, model, id: input.id!, trashed: list }, input.action));
    const state = gate.state === 'visible' ? 'in the list' : `not in the list: ${RECORD_STATE_WORDS[gate.state]}`;
    checks.push({ gate: 'record', passed: true, ...named, detail: joined(state, named.detail), record: gate.state });
  }
  const operation = WRITES[input.action];
  if (operation !== undefined) {
    const { explanation } = decideWrite(model, policy, member.user, input.fields ?? [], operation);
    const detail = explanation.allowed ? 'every field writable' : `may not set ${explanation.fields.join(', ')}${explanation.policy === null ? '' : ` (${explanation.policy})`}`;
    checks.push({ gate: 'fields', passed: explanation.allowed, detail, fields: explanation });
    if (!explanation.allowed) return;
  }
  if (READING.includes(input.action) && input.fields !== undefined) {
    // A read leaves out what the member may not read and still answers: passed, the fields named.
    const readable = readableAttribute(policy, member.user);
    const hidden = input.fields.filter((field) => !readable(field));
    checks.push(hidden.length === 0 ? { gate: 'fields', passed: true, detail: 'every field readable' } : { gate: 'fields', passed: true, detail: `reads without ${hidden.join(', ')}`, hidden_fields: hidden });
  }
  if (includes !== null) {
    const include = context.explainIncludes(model, includes);
    checks.push({ gate: 'include', passed: include.allowed, detail: include.allowed ? 'every hop indexable' : `may not include ${include.include}: lacks ${include.permission}`, include });
  }
}

type NamedCondition = Partial<Pick<Check, 'detail' | 'condition' | 'conditions'>>;

/**
 * What admitted a record to the member's condition or kept it out, for a record of this
 * organization whose state the caller may know; nothing for any other.
 */
async function namedCondition(state: RecordState, decided: () => Promise<ConditionVerdict | undefined>): Promise<NamedCondition> {
  if (state !== 'visible' && state !== 'outside_condition') return {};
  const verdict = await decided();
  return verdict === undefined ? {} : verdictCheck(verdict);
}

const joined = (words: string, more: string | undefined) => (more === undefined ? words : `${words}: ${more}`);

/** The record conditions an explanation names: the models' declared ones and the member's facts. */
interface RecordConditionScene {
  readonly catalog: ConditionCatalog;
  readonly facts: ConditionContext;
}

async function setUserContext(context: DataActionContext, userId: number | null): Promise<void> {
  await sql`SELECT set_config('gatehouse.user_id', ${userId === null ? '' : String(userId)}, true)`.execute(context.trx);
}
