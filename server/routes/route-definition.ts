import type { ZodType } from 'zod';
import type { ServedCheck } from '../data/check-action.js';
import type { GatehouseMiddleware, GroupState } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Services } from '../services.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type JsonSchema = Record<string, unknown>;

/** Where a route set is mounted: the group (none for the service routes) and the base below the base path. */
export interface Mount {
  group: RouteGroup | null;
  base: string;
}

export interface ResponseDescription {
  description: string;
  /** JSON body; none for an empty answer. */
  schema?: JsonSchema;
  /** Pagination headers (`X-Current-Page`, ...). */
  paged?: boolean;
  /** A body of another type than JSON (the reference page's HTML). */
  contentType?: string;
}

/**
 * How one operation of the HTTP surface is described (method, path, summary, body, answers): what
 * the OpenAPI document needs of it.
 */
export interface RouteDescription {
  /** Unique within its set; the document prefixes it with the group where one set is mounted several times. */
  operationId: string;
  method: HttpMethod;
  /** Koa path below the set's mount: `/login`, `/invitations/:id/resend`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** `bearer`: a session is required; `optional`: read when sent; `none`: never read. */
  access: 'bearer' | 'optional' | 'none';
  body?: ZodType;
  /** Query parameters, as a zod object of strings. */
  query?: ZodType;
  responses: Readonly<Record<number, ResponseDescription>>;
  /** Statuses answered with the `{message}` error body. */
  errors: readonly number[];
}

/**
 * One operation of the HTTP surface: how it is described and how it is mounted (its middleware,
 * for requests that arrive with `State`: a group's routes are bound to their group). Routers and
 * the OpenAPI document are both built from these.
 */
export interface RouteDefinition<State = GroupState> extends RouteDescription {
  handle(services: Services, mount: Mount): GatehouseMiddleware<State>[];
  /**
   * For a route that answers instead of the data route of the same method and path (`GET
   * {t}/roles` before the roles index): how it decides that data route's check, so that
   * `POST {t}/authorize` and `POST {t}/explain` answer as the route does. Throws its refusal.
   */
  servesCheck?: ServedCheck['decide'];
}
