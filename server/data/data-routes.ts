import Router from '@koa/router';
import type { GatehouseContext, GatehouseState } from '../http/state.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { RawQuery } from '../query/query-parameter.js';
import type { DataContext } from './data-context.js';
import { dataContextFor } from './data-context-for.js';
import { coerceFormFields } from './form-fields.js';
import { runNestedOperations } from './nested-operations.js';
import { paginated } from './paginated.js';
import { auditTrail, computeAggregates, indexRecords, showRecord, trashedRecords } from './read-actions.js';
import { destroyRecord, forceDeleteRecord, restoreRecord, storeRecord, updateRecord } from './write-actions.js';

type Handler = (context: DataContext, model: ModelDefinition, ctx: GatehouseContext) => Promise<unknown>;

interface DataRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  status: number;
  handle: Handler;
}

const query = (ctx: GatehouseContext) => ctx.query as RawQuery;
const param = (ctx: GatehouseContext, name: string) => ctx.params[name] ?? '';
const body = (ctx: GatehouseContext) => ctx.request.body;
// Store and update also take form bodies, whose fields are typed by the model.
const record = (ctx: GatehouseContext, model: ModelDefinition) => (ctx.is('urlencoded', 'multipart') ? coerceFormFields(model, body(ctx)) : body(ctx));

const update: Handler = (context, model, ctx) => updateRecord(context, model, param(ctx, 'id'), record(ctx, model));

// Literal segments come before `/:model/:id`, which would otherwise swallow them.
const ROUTES: readonly DataRoute[] = [
  { method: 'get', path: '/:model/computed', status: 200, handle: (context, model, ctx) => computeAggregates(context, model, query(ctx)) },
  { method: 'get', path: '/:model/trashed', status: 200, handle: async (context, model, ctx) => paginated(ctx, await trashedRecords(context, model, query(ctx))) },
  { method: 'post', path: '/:model/nested', status: 200, handle: (context, model, ctx) => runNestedOperations(context, body(ctx), model.slug) },
  { method: 'get', path: '/:model', status: 200, handle: async (context, model, ctx) => paginated(ctx, await indexRecords(context, model, query(ctx))) },
  { method: 'post', path: '/:model', status: 201, handle: (context, model, ctx) => storeRecord(context, model, record(ctx, model)) },
  { method: 'get', path: '/:model/:id', status: 200, handle: (context, model, ctx) => showRecord(context, model, param(ctx, 'id'), query(ctx)) },
  { method: 'put', path: '/:model/:id', status: 200, handle: update },
  { method: 'patch', path: '/:model/:id', status: 200, handle: update },
  { method: 'delete', path: '/:model/:id', status: 204, handle: (context, model, ctx) => destroyRecord(context, model, param(ctx, 'id')) },
  { method: 'post', path: '/:model/:id/restore', status: 200, handle: (context, model, ctx) => restoreRecord(context, model, param(ctx, 'id')) },
  { method: 'delete', path: '/:model/:id/force-delete', status: 204, handle: (context, model, ctx) => forceDeleteRecord(context, model, param(ctx, 'id')) },
  { method: 'get', path: '/:model/:id/audit', status: 200, handle: async (context, model, ctx) => paginated(ctx, await auditTrail(context, model, param(ctx, 'id'), query(ctx))) },
];

function respond(ctx: GatehouseContext, status: number, result: unknown): void {
  ctx.status = status;
  if (status !== 204) ctx.body = result;
}

/**
 * The contract's data endpoints, relative to a data base; the server mounts the router under each
 * base of a route group, behind the group's request context.
 */
export function dataRouter(registry: ModelRegistry): Router<GatehouseState> {
  const router = new Router<GatehouseState>();
  router.post('/nested', async (ctx) => respond(ctx, 200, await runNestedOperations(dataContextFor(ctx, registry), body(ctx))));
  for (const route of ROUTES) {
    router[route.method](route.path, async (ctx) => {
      const context = dataContextFor(ctx, registry);
      respond(ctx, route.status, await route.handle(context, context.model(param(ctx, 'model')), ctx));
    });
  }
  return router;
}
