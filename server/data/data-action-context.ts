import { ALWAYS, authorizeIncludes, explainIncludes, readableAttribute, type AccessPlan, type IncludeRequest, type IncludesExplanation, type PolicyContext, type PolicyMethod, type ResourcePolicy } from '@gatehouse/engine';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import { evaluatePolicy } from '../observability/policy-evaluation.js';
import { UNOBSERVED, type Observability } from '../observability/observability.js';
import { relationSlugIn, type ModelRegistry } from '../models/model-registry.js';
import type { LooseTransaction } from '../models/loose-schema.js';
import { UnknownModelError } from '../errors/data-errors.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { recordAccess } from './record-access.js';

/** The caller as the data layer records it (author columns, audit rows): a user row's key. */
export interface Caller {
  readonly id: number;
}

export type DataPolicy = ResourcePolicy<object>;

/** Everything a data action needs, for one request, inside its tenant transaction. */
export interface DataActionContext {
  readonly trx: LooseTransaction;
  readonly registry: ModelRegistry;
  /** A model the request's route group serves; any other slug is a 404. */
  model(slug: string): ModelDefinition;
  readonly user: Caller | null;
  readonly scope: ScopeContext;
  /** The model's policy, bound to this request. */
  policyFor(model: ModelDefinition): DataPolicy;
  /** Whether the caller may read an attribute of the model (its policy's read gate), asked once per request. */
  readable(model: ModelDefinition): (attribute: string) => boolean;
  /** The action policy gate: 403 unless the model's policy method allows the caller (and the record). */
  authorize(model: ModelDefinition, method: PolicyMethod, record?: object): void;
  /** Every hop of every include path needs `{slug}.index`: 403 naming the first refused hop, 400 for an unknown one. */
  authorizeIncludes(model: ModelDefinition, includes: readonly string[]): void;
  /** The same check, answered: the first hop refused and the permission it needs. */
  explainIncludes(model: ModelDefinition, includes: readonly string[]): IncludesExplanation;
  /** Which records of a model the caller may act on (their record conditions). */
  plan(slug: string, action: string): AccessPlan;
  /** The effective permissions the plans come from. */
  readonly permissions: readonly string[];
  /** Records that a statement read through the caller's condition on `action`: the policy takes SQL's answer for them. */
  admit(record: object, action: string): void;
  /** The request's deadline, for a transaction the action opens of its own; none outside requests. */
  readonly deadline: RequestDeadline | undefined;
}

export interface DataActionContextOptions {
  trx: LooseTransaction;
  registry: ModelRegistry;
  policy: PolicyContext & { readonly user: Caller | null };
  /** Slugs the route group serves. */
  served: readonly string[];
  /** Where policy evaluations are traced and counted; default nowhere. */
  observability?: Observability;
  /** The caller's record conditions; default none (every record, as plain permissions give it). */
  plan?: (slug: string, action: string) => AccessPlan;
  permissions?: readonly string[];
  deadline?: RequestDeadline;
}

const EVERY_RECORD = () => ALWAYS;

// A route group's list of models is its own for the life of the server: its set is made once, not per request.
const servedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function servedSet(served: readonly string[]): ReadonlySet<string> {
  let set = servedSets.get(served);
  if (!set) servedSets.set(served, (set = new Set(served)));
  return set;
}

/**
 * One request's data context. A class, its methods on the prototype and its maps made on first
 * use: a closure per method and a map per request showed in the profile of every read.
 */
class RequestDataContext implements DataActionContext {
  readonly trx: LooseTransaction;
  readonly registry: ModelRegistry;
  readonly user: Caller | null;
  readonly scope: ScopeContext;
  readonly plan: (slug: string, action: string) => AccessPlan;
  readonly permissions: readonly string[];
  readonly deadline: RequestDeadline | undefined;
  readonly #served: ReadonlySet<string>;
  readonly #observability: Observability;
  readonly #policy: PolicyContext & { readonly user: Caller | null };
  #bound: Map<ModelDefinition, DataPolicy> | null = null;
  #readable: Map<ModelDefinition, (attribute: string) => boolean> | null = null;
  #admitted: WeakMap<object, Set<string>> | null = null;

  constructor({ trx, registry, policy: caller, served, observability = UNOBSERVED, plan = EVERY_RECORD, permissions = [], deadline }: DataActionContextOptions) {
    this.trx = trx;
    this.registry = registry;
    this.user = caller.user;
    this.plan = plan;
    this.permissions = permissions;
    this.deadline = deadline;
    this.#served = servedSet(served);
    this.#observability = observability;
    // A record the SQL read through the caller's condition on an action is admitted for it; the
    // policy checks any other record (or action) against the rules in memory.
    this.#policy = { ...caller, recordVerdict: (_slug, action, record) => (this.#admitted?.get(record)?.has(action) ? true : undefined) };
    this.scope = {
      organizationId: caller.organization?.id ?? null,
      userId: caller.user?.id ?? null,
      routeGroup: caller.routeGroup,
      access: recordAccess(plan, registry),
    };
  }

  admit(record: object, action: string): void {
    this.#admitted ??= new WeakMap();
    const actions = this.#admitted.get(record);
    if (actions) actions.add(action);
    else this.#admitted.set(record, new Set([action]));
  }

  model(slug: string): ModelDefinition {
    if (!this.#served.has(slug)) throw new UnknownModelError(slug);
    return this.registry.get(slug);
  }

  policyFor(model: ModelDefinition): DataPolicy {
    this.#bound ??= new Map();
    let instance = this.#bound.get(model);
    if (!instance) {
      const Policy = this.registry.policy(model);
      this.#bound.set(model, (instance = new Policy(this.#policy)));
    }
    return instance;
  }

  readable(model: ModelDefinition): (attribute: string) => boolean {
    this.#readable ??= new Map();
    let readable = this.#readable.get(model);
    if (!readable) this.#readable.set(model, (readable = readableAttribute(this.policyFor(model), this.user)));
    return readable;
  }

  authorize(model: ModelDefinition, method: PolicyMethod, record?: object): void {
    evaluatePolicy(this.#observability, { model: model.slug, method }, () => this.policyFor(model).authorize(method, this.user, record));
  }

  authorizeIncludes(model: ModelDefinition, includes: readonly string[]): void {
    authorizeIncludes(this.#includeRequest(model, includes));
  }

  explainIncludes(model: ModelDefinition, includes: readonly string[]): IncludesExplanation {
    return explainIncludes(this.#includeRequest(model, includes));
  }

  #includeRequest(model: ModelDefinition, includes: readonly string[]): IncludeRequest {
    return { ability: this.#policy.ability, rootSlug: model.slug, includes, relationSlug: relationSlugIn(this.registry) };
  }
}

export function createDataActionContext(options: DataActionContextOptions): DataActionContext {
  return new RequestDataContext(options);
}
