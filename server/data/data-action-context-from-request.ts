import type { DataState, GatehouseContext } from '../http/state.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { policyContext } from '../permissions/policy-context.js';
import { loose } from '../db/transactions/tenant-transaction.js';
import type { Observability } from '../observability/observability.js';
import { createDataActionContext, type DataActionContext } from './data-action-context.js';

/** A data request's context, from what the server's middleware chain has settled. */
export function dataActionContextFromRequest(ctx: GatehouseContext<DataState>, registry: ModelRegistry, observability?: Observability): DataActionContext {
  return createDataActionContext({
    trx: loose(ctx.state.trx),
    registry,
    policy: policyContext(ctx),
    plan: ctx.state.authorization.plan,
    permissions: ctx.state.authorization.permissions,
    served: ctx.state.routeGroup.models,
    observability,
    deadline: ctx.state.deadline,
  });
}
