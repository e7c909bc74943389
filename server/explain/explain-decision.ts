import {
  conditionContext,
  explainPermission,
  GATE_STATUS,
  parseIncludeParam,
  policyMethodFor,
  type Decision,
  type DecisionCheck as Check,
  type PolicyExplanation,
  type StandardAction,
} from '@gatehouse/engine';
import { sql } from 'kysely';
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

import type { ExplainInput } from './explain-schema.js';
import type { ExplainedMember } from './explained-member.js';
import { RECORD_STATE_WORDS, recordGate } from './record-gate.js';
import type { TrashedMode } from '../listing/gated-query.js';

// The record gate of each record action, as its handler reads it.
const TRASHED: Partial<Record<StandardAction, TrashedMode>> = { show: 'without', update: 'without', destroy: 'without', restore: 'only', forceDelete: 'with' };
const WRITES: Partial<Record<StandardAction, 'create' | 'update'>> = { store: 'create', update: 'update' };
const INCLUDING: readonly StandardAction[] = ['index', 'show', 'trashed'];

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
  /** Whether the record gate may say why it hid a record (`decisions.explain`, an operator). */
  readonly detailed: boolean;
}

function served(scene: DecisionScene, input: ExplainInput): { model: ModelDefinition; route: DataRoute } {
  const { registry } = scene;
  if (!registry || !scene.group.models.includes(input.model)) throw ValidationError.field('model', `The model ${input.model} is not served here.`);
  const model = registry.get(input.model);
  const route = DATA_ROUTES.find((candidate) => candidate.operation === input.action)!;
  if (TRASHED[input.action] !== undefined && input.id === undefined) throw ValidationError.field('id', `The id field is required for ${input.action}.`);
  return { model, route };
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
  const { model, route } = served(scene, input);
  const { group, organization } = scene;
  const registry = scene.registry!;
  const caller = { user: member.user, organization, routeGroup: group.name };
  const compiled = compiledPermissions(member.sources, { catalog: registry.conditions, context: conditionContext(caller) });
  const context = createDataActionContext({
    trx: loose(scene.trx),
    registry,
    policy: { ...caller, ability: compiled.ability, role: member.role },
    served: group.models,
    plan: compiled.plan,
    permissions: compiled.permissions,
  });
  const checks: Check[] = [
    { gate: 'authentication', passed: true, detail: member.self ? 'signed in' : 'explained as signed in' },
    { gate: 'route_group', passed: true, detail: scene.membershipEnforcement ? `a member of the ${group.name} route group` : 'membership enforcement is off' },
    { gate: 'organization', passed: true, detail: organization.slug },
    { gate: 'membership', passed: true, detail: `${member.role} of ${organization.slug}` },
  ];
  const path = `${scene.base}${route.path.replace(':model', model.slug).replace(':id', String(input.id ?? ''))}`;
  // The member's own context, so row-level security and scopes that read the user see them.
  await setUserContext(context, member.user.id);
  try {
    await decide(context, model, route, input, member, scene.detailed, checks);
  } finally {
    await setUserContext(context, scene.callerId);
  }
  const refused = checks.find((check) => !check.passed);
  return {
    allowed: refused === undefined,
    gate: refused?.gate ?? null,
    status: refused === undefined ? route.status : GATE_STATUS[refused.gate],
    user: { ...member.user, role: member.role },
    request: {
      method: route.method.toUpperCase(),
      route: path,
      model: model.slug,
      action: input.action,
      ...(input.id === undefined ? {} : { id: input.id }),
      ...(input.fields === undefined ? {} : { fields: input.fields }),
      ...(input.include === undefined ? {} : { include: input.include }),
    },
    checks,
  };
}

async function decide(context: DataActionContext, model: ModelDefinition, route: DataRoute, input: ExplainInput, member: ExplainedMember, detailed: boolean, checks: Check[]): Promise<void> {
  // The request answers 404 before any gate reads the record or the policy, whoever asks.
  if (!modelHas(model, route)) {
    checks.push({ gate: 'record', passed: false, detail: `${model.slug} does not use soft deletes` });
    return;
  }
  const trashed = TRASHED[input.action];
  let row: Record<string, unknown> | undefined;
  if (trashed !== undefined) {
    const gate = await recordGate(context, model, input.id!, trashed, detailed);
    checks.push({ gate: 'record', passed: gate.state === 'visible', detail: RECORD_STATE_WORDS[gate.state], record: gate.state });
    if (gate.row === undefined) return;
    row = gate.row;
  }
  const policy: DataPolicy = context.policyFor(model);
  const explained = policy.explain(policyMethodFor(input.action)!, member.user, row);
  checks.push({ gate: 'policy', passed: explained.allowed, detail: policyWords(explained), policy: explained, permission: explainPermission(member.sources, explained.permission) });
  if (!explained.allowed) return;
  const operation = WRITES[input.action];
  if (operation !== undefined) {
    const { explanation } = decideWrite(model, policy, member.user, input.fields ?? [], operation);
    const detail = explanation.allowed ? 'every field writable' : `may not set ${explanation.fields.join(', ')}${explanation.policy === null ? '' : ` (${explanation.policy})`}`;
    checks.push({ gate: 'fields', passed: explanation.allowed, detail, fields: explanation });
    if (!explanation.allowed) return;
  }
  if (INCLUDING.includes(input.action) && input.include !== undefined) {
    const include = context.explainIncludes(model, parseIncludeParam(input.include.join(',')));
    checks.push({ gate: 'include', passed: include.allowed, detail: include.allowed ? 'every hop indexable' : `may not include ${include.include}: lacks ${include.permission}`, include });
  }
}

async function setUserContext(context: DataActionContext, userId: number | null): Promise<void> {
  await sql`SELECT set_config('gatehouse.user_id', ${userId === null ? '' : String(userId)}, true)`.execute(context.trx);
}
