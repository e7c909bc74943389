import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { LooseRow, LooseTransaction } from '../query/loose-schema.js';

export interface Caller {
  readonly id: number;
}

/** The slice of the engine's ResourcePolicy a data request uses. */
export interface DataPolicy {
  viewAny(user: Caller | null): boolean;
  view(user: Caller | null, record: LooseRow): boolean;
  create(user: Caller | null): boolean;
  update(user: Caller | null, record: LooseRow): boolean;
  delete(user: Caller | null, record: LooseRow): boolean;
  viewTrashed(user: Caller | null): boolean;
  restore(user: Caller | null, record: LooseRow): boolean;
  forceDelete(user: Caller | null, record: LooseRow): boolean;
  permittedAttributesForShow(user: Caller | null): string[] | null;
  hiddenAttributesForShow(user: Caller | null): string[] | null;
  permittedAttributesForCreate(user: Caller | null): string[] | null;
  permittedAttributesForUpdate(user: Caller | null): string[] | null;
}

/** Everything a data action needs, for one request, inside its tenant transaction. */
export interface DataContext {
  readonly trx: LooseTransaction;
  readonly registry: ModelRegistry;
  /** A model the request's route group serves; any other slug is a 404. */
  model(slug: string): ModelDefinition;
  readonly user: Caller | null;
  readonly scope: ScopeContext;
  policyFor(model: ModelDefinition): DataPolicy;
  /** Throws the 403 when any hop of any include path is not permitted. */
  authorizeIncludes(model: ModelDefinition, includes: readonly string[]): void;
}
