import Router from '@koa/router';
import type { Context } from 'koa';
import type { ModelDefinition } from '../models/define-model.js';
import type { RawQuery } from '../query/parse-index-query.js';
import type { DataContext } from './data-context.js';
import { runNestedOperations } from './nested-operations.js';
import { auditTrail, computeAggregates, indexRecords, showRecord, trashedRecords, type RecordList } from './read-actions.js';
import { destroyRecord, forceDeleteRecord, restoreRecord, storeRecord, updateRecord } from './write-actions.js';

export interface DataRouterOptions {
  /**
   * The request's data context. The app builds it after authentication, group membership and
   * the organization are settled and the tenant transaction is open.
   */
  contextFor(ctx: Context): DataContext;
}

type Handler = (context: DataContext, model: ModelDefinition, ctx: Context) => Promise<unknown>;

interface DataRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  status: number;
  handle: Handler;
}

const query = (ctx: Context) => ctx.query as RawQuery;
const param = (ctx: Context, name: string) => ctx.params[name] ?? '';
const body = (ctx: Context) => (ctx.request as { body?: unknown }).body;

function withPagination(ctx: Context, list: RecordList) {
  ctx.set({
    'X-Current-Page': String(list.pagination.currentPage),
    'X-Last-Page': String(list.pagination.lastPage),
    'X-Per-Page': String(list.pagination.perPage),
    'X-Total': String(list.pagination.total),
  });
  return { data: list.data };
}

const update: Handler = (context, model, ctx) => updateRecord(context, model, param(ctx, 'id'), body(ctx));

// Literal segments come before `/:model/:id`, which would otherwise swallow them.
const ROUTES: readonly DataRoute[] = [
  { method: 'get', path: '/:model/computed', status: 200, handle: (context, model, ctx) => computeAggregates(context, model, query(ctx)) },
  {
    method: 'get',
    path: '/:model/trashed',
    status: 200,
    handle: async (context, model, ctx) => withPagination(ctx, await trashedRecords(context, model, query(ctx))),
  },
  {
    method: 'post',
    path: '/:model/nested',
    status: 200,
    handle: async (context, model, ctx) => ({ results: await runNestedOperations(context, body(ctx), model.slug) }),
  },
  {
    method: 'get',
    path: '/:model',
    status: 200,
    handle: async (context, model, ctx) => withPagination(ctx, await indexRecords(context, model, query(ctx))),
  },
  { method: 'post', path: '/:model', status: 201, handle: (context, model, ctx) => storeRecord(context, model, body(ctx)) },
  { method: 'get', path: '/:model/:id', status: 200, handle: (context, model, ctx) => showRecord(context, model, param(ctx, 'id'), query(ctx)) },
  { method: 'put', path: '/:model/:id', status: 200, handle: update },
  { method: 'patch', path: '/:model/:id', status: 200, handle: update },
  { method: 'delete', path: '/:model/:id', status: 204, handle: (context, model, ctx) => destroyRecord(context, model, param(ctx, 'id')) },
  { method: 'post', path: '/:model/:id/restore', status: 200, handle: (context, model, ctx) => restoreRecord(context, model, param(ctx, 'id')) },
  {
    method: 'delete',
    path: '/:model/:id/force-delete',
    status: 204,
    handle: (context, model, ctx) => forceDeleteRecord(context, model, param(ctx, 'id')),
  },
  { method: 'get', path: '/:model/:id/audit', status: 200, handle: async (context, model, ctx) => ({ data: await auditTrail(context, model, param(ctx, 'id'), query(ctx)) }) },
];

function respond(ctx: Context, status: number, result: unknown) {
  ctx.status = status;
  if (status !== 204) ctx.body = result;
}

/** The contract's data endpoints, relative to a data base; the app mounts them under each. */
export function createDataRouter(options: DataRouterOptions): Router {
  const router = new Router();
  router.post('/nested', async (ctx) => {
    respond(ctx, 200, { results: await runNestedOperations(options.contextFor(ctx), body(ctx)) });
  });
  for (const route of ROUTES) {
    router[route.method](route.path, async (ctx) => {
      const context = options.contextFor(ctx);
      respond(ctx, route.status, await route.handle(context, context.model(param(ctx, 'model')), ctx));
    });
  }
  return router;
}
