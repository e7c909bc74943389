import type { AuthorizeCheck, AuthorizePlan, AuthorizePlanRequest, AuthorizeResult } from '@gatehouse/engine/wire';
import type { ResourcePolicy } from '@gatehouse/engine';
import { authorizePlans, authorizeResults, type ExpectedAnswer } from './answer-shapes.js';
import { clocksOf } from './clocks.js';
import { bindPolicy, type ServicePolicyClass } from './engine-bridge.js';
import { HttpClient, type Timeouts } from './http-client.js';
import { GatehouseOptionError } from './errors.js';
import { isRecord } from './is-record.js';
import { connectMiddleware, fastifyHook } from './middleware.js';
import { PermissionsCache, type OnUnavailable, type Permissions } from './permissions-cache.js';
import { tenantPath } from './tenant-path.js';
import { TokenVerifier, type TokenCaller } from './token-verifier.js';

export interface GatehouseOptions {
  /** Gatehouse's API base, such as `https://gatehouse.example.com/api`: an http or https URL, else a `GatehouseOptionError`. */
  baseURL: string;
  /** PASERK `k4.public` keys to verify tokens with; default: fetched from `{baseURL}/public-key`. */
  publicKeys?: readonly string[];
  /**
   * Seconds a permissions answer is used without asking Gatehouse again; default 0 (revalidate on
   * every call). Anything but a number of at least 0 is a `GatehouseOptionError` from `createGatehouse`.
   */
  maxAge?: number;
  /**
   * How long a call waits for Gatehouse before it throws a `timeout` error; default 2 s for a
   * connection, 5 s for the answer. Anything but an object of those two is a `GatehouseOptionError`.
   */
  timeout?: Timeouts;
  /** Connections kept open to Gatehouse at most; past them, calls wait in line for one (within `timeout.connectMs`). Default 32. */
  maxConnections?: number;
  /**
   * Once a call finds Gatehouse unreachable or slow: `'fail'` (default) stops using kept permissions
   * answers until Gatehouse answers again; `'cached'` keeps using those younger than `maxAge`.
   * Any other value is a `GatehouseOptionError` from `createGatehouse`.
   */
  onUnavailable?: OnUnavailable;
  /**
   * This service's name (lower-case letters, digits, `-` and `_`), sent as `X-Gatehouse-Service`
   * with every call: the decision log names it on the refusals of its `authorize` calls. Another
   * name, which Gatehouse would refuse, is a `GatehouseOptionError` from `createGatehouse`.
   */
  service?: string;
  /**
   * A clock for tests, in milliseconds since the epoch, for token expiry, for ages (cached
   * answers, the key list's `max-age`) and for the wait before the key list is fetched again for
   * an unknown key id (it ends once the clock is moved past it). Default: `Date.now` for expiry,
   * and a monotonic clock for ages and the wait, which a step of the wall clock does not move.
   */
  now?: () => number;
}

/** What every call that may ask Gatehouse takes. */
export interface CallOptions {
  /**
   * Cancels the call (say when the request it serves was cancelled): it rejects with the signal's
   * reason, as fetch does, frees its connection, and leaves the client's view of Gatehouse and its
   * cache as they were. An aborted signal sends nothing.
   */
  signal?: AbortSignal;
}

export interface PermissionsOptions extends CallOptions {
  /** Seconds this call may use a kept answer without asking Gatehouse; default: the client's `maxAge`, and held to its rule (the call rejects with a `GatehouseOptionError`). */
  maxAge?: number;
}

export interface Gatehouse {
  /** The caller of a token, checked offline; an `UnauthenticatedError` for a forged or expired one. */
  verifyToken(token: string, options?: CallOptions): Promise<TokenCaller>;
  /**
   * `POST {t}/authorize`: each check as Gatehouse would answer its request. `org` is the tenant
   * path below `baseURL`: the organization's slug (`acme`), or `{group}/{org}`.
   */
  authorize(token: string, org: string, checks: readonly AuthorizeCheck[], options?: CallOptions): Promise<AuthorizeResult[]>;
  /** `POST {t}/authorize` with `plans`: which records of each model the caller may act on, for `planToSql`. */
  plans(token: string, org: string, plans: readonly AuthorizePlanRequest[], options?: CallOptions): Promise<AuthorizePlan[]>;
  /**
   * Role, effective permissions and abilities in `org`, cached per session and organization and
   * revalidated by ETag once older than `maxAge` seconds (this call's, else the client's).
   */
  permissions(token: string, org: string, options?: PermissionsOptions): Promise<Permissions>;
  /** A `ResourcePolicy` of the service's own, bound to the caller's permissions in `org` (as `permissions` gets them). */
  policy<P extends ResourcePolicy<object>>(token: string, org: string, Policy: ServicePolicyClass<P>, options?: PermissionsOptions): Promise<P>;
  /** Express/Connect middleware: 401 without a genuine token, else `req.gatehouse`. */
  express(): ReturnType<typeof connectMiddleware>;
  /** A Fastify `onRequest` hook: 401 without a genuine token, else `request.gatehouse`. */
  fastify(): ReturnType<typeof fastifyHook>;
  /** Ends the calls in flight and in line, and any made after it, as `unavailable`, and closes the kept-alive connections. */
  close(): void;
}

const given = (value: unknown) => (Array.isArray(value) ? 'a list' : typeof value === 'string' ? JSON.stringify(value) : String(value));

/**
 * A JavaScript caller's `createGatehouse()` or `createGatehouse(url)` would otherwise fail at the
 * destructuring with a TypeError that names no option, or as a baseURL of `undefined`.
 */
function optionsObject(options: GatehouseOptions): GatehouseOptions {
  if (isRecord(options)) return options;
  throw new GatehouseOptionError('baseURL', `createGatehouse takes an object of options with at least baseURL, such as createGatehouse({ baseURL: 'https://gatehouse.example.com/api' }), not ${given(options)}.`);
}

export function createGatehouse(options: GatehouseOptions): Gatehouse {
  const { baseURL, publicKeys, maxAge = 0, timeout, maxConnections, onUnavailable = 'fail', service, now } = optionsObject(options);
  const http = new HttpClient({ baseURL, timeouts: timeout, service, maxConnections });
  const clocks = clocksOf(now);
  const verifier = new TokenVerifier(http, publicKeys, clocks);
  const cache = new PermissionsCache(http, clocks.monotonic, { maxAge, onUnavailable });
  const verifyToken = (token: string, options: CallOptions = {}) => verifier.verify(token, options.signal);
  const askAuthorize = async <T>(token: string, org: string, body: object, expected: ExpectedAnswer<T>, { signal }: CallOptions = {}) =>
    (await http.json({ method: 'POST', path: `${tenantPath(org)}/authorize`, token, body, signal }, expected)).body;
  const permissionsOf = async (token: string, org: string, options: PermissionsOptions = {}) => {
    const caller = await verifyToken(token, options);
    return { caller, permissions: await cache.get(token, caller.sessionId, tenantPath(org), options.maxAge, options.signal) };
  };
  return {
    verifyToken,
    authorize: async (token, org, checks, options) => (await askAuthorize(token, org, { checks }, authorizeResults(checks.length), options)).results,
    plans: async (token, org, plans, options) => (await askAuthorize(token, org, { plans }, authorizePlans(plans.length), options)).plans,
    permissions: async (token, org, options) => (await permissionsOf(token, org, options)).permissions,
    async policy(token, org, Policy, options) {
      const { caller, permissions } = await permissionsOf(token, org, options);
      return bindPolicy(Policy, caller, permissions);
    },
    express: () => connectMiddleware(verifyToken),
    fastify: () => fastifyHook(verifyToken),
    close: () => http.close(),
  };
}
