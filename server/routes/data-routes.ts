import type { DataState, GatehouseContext, GatehouseMiddleware, GroupState } from '../http/state.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { Observability } from '../observability/observability.js';
import type { EndpointKind } from '../listing/endpoint-parameters.js';
import type { RawQuery } from '../listing/query-parameter.js';
import type { HttpMethod } from './route-definition.js';
import type { DataActionContext } from '../data/data-action-context.js';
import { dataActionContextFromRequest } from '../data/data-action-context-from-request.js';
import { coerceFormFields } from '../data/form-fields.js';
import { runNestedOperations } from '../data/nested-operations.js';
import { paginated, paginatedJson } from '../data/paginated.js';
import { JsonText } from '../data/json-text.js';
import { jsonArrayInSlices } from '../data/in-slices.js';
import type { Services } from '../services.js';
import { preferredCount } from '../models/count-mode.js';
import {
  auditTrail,
  computeAggregates,
  listAnswer,
  planAggregates,
  planAudit,
  planListing,
  planShow,
  showRecord,
  type Listing,
  type PlannedRead,
} from '../data/read-actions.js';
import type { RecordReading } from '../data/json-reads.js';
import type { ReadAhead } from '../db/transactions/read-ahead.js';
import type { LooseTransaction } from '../models/loose-schema.js';
import type { RequestReads } from '../tenancy/request-reads.js';
import { destroyRecord, forceDeleteRecord, restoreRecord, storeRecord, updateRecord } from '../data/write-actions.js';
import { planRecordWrite, planStore } from '../data/write-plans.js';
import type { RecordMethod } from '../data/action-gates.js';
import { recordAccess } from '../data/record-access.js';
import { parseEndpointParameters, refuseQueryParameters } from '../listing/parse-endpoint-parameters.js';

/** What a data route reads with beyond its request: cursor keys, and where PostgreSQL writes records' JSON. */
export type ReadServices = Pick<Services, 'cursors' | 'recordJson'>;

type Handler = (context: DataActionContext, model: ModelDefinition, ctx: GatehouseContext<DataState>, services: ReadServices) => Promise<unknown>;

/** What a read route's handler is going to read, planned before the request's opening answers (`tenancy/request-reads.ts`). */
type Reads = (read: PlannedRead, ctx: GatehouseContext<GroupState>, services: ReadServices, params: Record<string, string>) => ReadAhead | null;

/** What an endpoint answers with, for the API reference. */
export type DataAnswer = 'list' | 'record' | 'none' | 'aggregates' | 'audit' | 'nested';

/** One contract data endpoint of every model: routed once with `:model`, described once per model. */
export interface DataRoute {
  /** Joined to the model's slug in the operationId (`posts.index`). */
  operation: string;
  method: HttpMethod;
  /** Below the data base; `:model` is the model's slug. */
  path: string;
  status: number;
  summary: (slug: string) => string;
  query: EndpointKind;
  body?: 'create' | 'update' | 'nested';
  answer: DataAnswer;
  /** Served only for models that keep soft deletes or an audit trail. */
  needs?: 'softDeletes' | 'audit';
  handle: Handler;
  /** What the route reads (a write: before it writes), sent with the request's opening. */
  reads?: Reads;
}

const query = (ctx: Pick<GatehouseContext, 'query'>) => ctx.query as RawQuery;
const param = (ctx: GatehouseContext<DataState>, name: string) => ctx.params[name] ?? '';
const body = (ctx: GatehouseContext<GroupState>) => ctx.request.body;
const listing = (ctx: Pick<GatehouseContext, 'get'>, { cursors }: ReadServices): Listing => ({ preferredCount: preferredCount(ctx.get('Prefer')), cursors });
const organizationSlug = (ctx: GatehouseContext<DataState>) => ctx.state.organization?.slug ?? null;
const reading = (ctx: GatehouseContext<DataState>, services: ReadServices): RecordReading => ({ catalog: services.recordJson, organizationSlug: organizationSlug(ctx) });

/**
 * An index or trash page, its records' JSON written by PostgreSQL where it can, else by Node a
 * slice at a time (`in-slices.ts`): a page of embedded includes is large.
 */
const list =
  (trashed: 'without' | 'only'): Handler =>
  async (context, model, ctx, services) => {
    const answer = await listAnswer(context, model, query(ctx), listing(ctx, services), trashed, reading(ctx, services));
    return paginatedJson(ctx, answer.kind === 'json' ? answer : { ...answer, kind: 'json', data: new JsonText(await jsonArrayInSlices(answer.data)) });
  };
// Store and update also take form bodies, whose fields are typed by the model.
const record = (ctx: GatehouseContext<GroupState>, model: ModelDefinition) => (ctx.is('urlencoded', 'multipart') ? coerceFormFields(model, body(ctx)) : body(ctx));

/** A data endpoint's write is its transaction's last statement: its COMMIT travels with it. */
const LAST = { last: true };

/** A write answering its record: the relations its query string includes, whose names are a 400 before any gate, as a read's are. */
const lastWrite = (context: DataActionContext, model: ModelDefinition, ctx: GatehouseContext<DataState>) => ({
  ...LAST,
  includes: parseEndpointParameters(context.registry, model, query(ctx), 'write').includes,
});

const update: Handler = (context, model, ctx) => updateRecord(context, model, param(ctx, 'id'), record(ctx, model), lastWrite(context, model, ctx));

/** What a record action reads before it writes, with the owner parent an update's body names. */
const recordWrite =
  (method: RecordMethod): Reads =>
  (read, ctx, _services, params) =>
    planRecordWrite(read, params.id ?? '', method, method === 'update' ? record(ctx, read.model) : undefined);

// Literal segments come before `/:model/:id`, which would otherwise swallow them.
export const DATA_ROUTES: readonly DataRoute[] = [
  { operation: 'computed', method: 'get', path: '/:model/computed', status: 200, summary: (slug) => `Aggregates over ${slug}`, query: 'computed', answer: 'aggregates', handle: (context, model, ctx) => computeAggregates(context, model, query(ctx)), reads: (read) => planAggregates(read) },
  { operation: 'trashed', method: 'get', path: '/:model/trashed', status: 200, summary: (slug) => `List deleted ${slug}`, query: 'index', answer: 'list', needs: 'softDeletes', handle: list('only'), reads: (read, ctx, services) => planListing(read, listing(ctx, services), 'only', services.recordJson) },
  { operation: 'nested', method: 'post', path: '/:model/nested', status: 200, summary: (slug) => `Several writes, starting from ${slug}, all or nothing`, query: 'none', body: 'nested', answer: 'nested', handle: (context, model, ctx) => runNestedOperations(context, body(ctx), model.slug) },
  { operation: 'index', method: 'get', path: '/:model', status: 200, summary: (slug) => `List ${slug}`, query: 'index', answer: 'list', handle: list('without'), reads: (read, ctx, services) => planListing(read, listing(ctx, services), 'without', services.recordJson) },
  { operation: 'store', method: 'post', path: '/:model', status: 201, summary: (slug) => `Create a ${slug} record`, query: 'write', body: 'create', answer: 'record', handle: (context, model, ctx) => storeRecord(context, model, record(ctx, model), lastWrite(context, model, ctx)), reads: (read, ctx) => planStore(read, record(ctx, read.model)) },
  { operation: 'show', method: 'get', path: '/:model/:id', status: 200, summary: (slug) => `Show a ${slug} record`, query: 'show', answer: 'record', handle: (context, model, ctx) => showRecord(context, model, param(ctx, 'id'), query(ctx)), reads: (read, _ctx, _services, params) => planShow(read, params.id ?? '') },
  { operation: 'update', method: 'put', path: '/:model/:id', status: 200, summary: (slug) => `Update a ${slug} record`, query: 'write', body: 'update', answer: 'record', handle: update, reads: recordWrite('update') },
  { operation: 'patch', method: 'patch', path: '/:model/:id', status: 200, summary: (slug) => `Update a ${slug} record (same as PUT)`, query: 'write', body: 'update', answer: 'record', handle: update, reads: recordWrite('update') },
  { operation: 'destroy', method: 'delete', path: '/:model/:id', status: 204, summary: (slug) => `Delete a ${slug} record`, query: 'none', answer: 'none', handle: (context, model, ctx) => destroyRecord(context, model, param(ctx, 'id'), LAST), reads: recordWrite('delete') },
  { operation: 'restore', method: 'post', path: '/:model/:id/restore', status: 200, summary: (slug) => `Restore a deleted ${slug} record`, query: 'write', answer: 'record', needs: 'softDeletes', handle: (context, model, ctx) => restoreRecord(context, model, param(ctx, 'id'), lastWrite(context, model, ctx)), reads: recordWrite('restore') },
  { operation: 'forceDelete', method: 'delete', path: '/:model/:id/force-delete', status: 204, summary: (slug) => `Delete a ${slug} record for good`, query: 'none', answer: 'none', needs: 'softDeletes', handle: (context, model, ctx) => forceDeleteRecord(context, model, param(ctx, 'id'), LAST), reads: recordWrite('forceDelete') },
  { operation: 'audit', method: 'get', path: '/:model/:id/audit', status: 200, summary: (slug) => `Audit trail of a ${slug} record`, query: 'audit', answer: 'audit', needs: 'audit', handle: async (context, model, ctx) => paginated(ctx, await auditTrail(context, model, param(ctx, 'id'), query(ctx), organizationSlug(ctx))), reads: (read, _ctx, _services, params) => planAudit(read, params.id ?? '') },
];

/** `POST {dataBase}/nested`: operations on any models the group serves. */
export const BASE_NESTED_ROUTE = { method: 'post', path: '/nested', status: 200, summary: 'Several writes across models, all or nothing', body: 'nested' } as const;

/**
 * What every data endpoint may answer besides its request context's refusals: a malformed query
 * or id (400), the policy (403), no such model or record (404); a body that fails validation 422.
 */
export const DATA_ERRORS = [400, 403, 404] as const;
export const INVALID_BODY = 422;

/** Whether a model has the endpoint (trash and audit only where it keeps them). */
export const modelHas = (model: ModelDefinition, route: DataRoute) =>
  route.needs === undefined || (route.needs === 'softDeletes' ? model.softDeletes : model.audit);

function respond(ctx: GatehouseContext<DataState>, status: number, result: unknown): void {
  ctx.status = status;
  if (status === 204) return;
  // Koa writes an object with JSON.stringify, as `application/json; charset=utf-8`: the same for text PostgreSQL wrote.
  if (result instanceof JsonText) {
    ctx.body = result.text;
    ctx.type = 'json';
  } else ctx.body = result;
}

/** A data endpoint's handler, behind its group's request context. */
export function dataEndpoint(route: DataRoute, registry: ModelRegistry, services: ReadServices, observability?: Observability): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    // Reads and the writes that answer a record parse their parameters; a route that takes none (a
    // delete) refuses any, since ignoring one (an include) would answer other than asked.
    if (route.query === 'none') refuseQueryParameters(query(ctx));
    const context = dataActionContextFromRequest(ctx, registry, observability);
    respond(ctx, route.status, await route.handle(context, context.model(param(ctx, 'model')), ctx, services));
  };
}

/** `POST {dataBase}/nested`'s handler, behind its group's request context. */
export function nestedEndpoint(registry: ModelRegistry, observability?: Observability): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    refuseQueryParameters(query(ctx));
    respond(ctx, BASE_NESTED_ROUTE.status, await runNestedOperations(dataActionContextFromRequest(ctx, registry, observability), body(ctx)));
  };
}

/**
 * What a data route reads, for its member chain to send with the request's opening; undefined for
 * a route that plans nothing (a nested request). The route matcher has already set the path's parameters.
 */
export function routeReads(route: DataRoute, registry: ModelRegistry, services: ReadServices, db: LooseTransaction): RequestReads | undefined {
  const { reads } = route;
  if (!reads) return undefined;
  return (ctx, { userId, group, organizationSlug, organizationId, plans }) => {
    const slug = ctx.params.model ?? '';
    if (!group.models.includes(slug) || !registry.has(slug)) return null;
    const scope = { organizationId: organizationId ?? null, userId, routeGroup: group.name, ...(plans && { access: recordAccess(plans, registry) }) };
    return reads({ db, registry, model: registry.get(slug), scope, organizationSlug, knowsCaller: organizationId !== undefined, raw: query(ctx) }, ctx, services, ctx.params);
  };
}
