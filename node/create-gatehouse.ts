import type { AuthorizeCheck, AuthorizePlan, AuthorizePlanRequest, AuthorizeResult } from '@gatehouse/engine/wire';
import type { ResourcePolicy } from '@gatehouse/engine';
import { authorizePlans, authorizeResults, type ExpectedAnswer } from './answer-shapes.js';
import { bindPolicy, type ServicePolicyClass } from './engine-bridge.js';
import { HttpClient, type Timeouts } from './http-client.js';
import { connectMiddleware, fastifyHook } from './middleware.js';
import { PermissionsCache, type OnUnavailable, type Permissions } from './permissions-cache.js';
import { tenantPath } from './tenant-path.js';
import { TokenVerifier, type TokenCaller } from './token-verifier.js';

export interface GatehouseOptions {
  /** Gatehouse's API base, such as `https://gatehouse.example.com/api`. */
  baseURL: string;
  /** PASERK `k4.public` keys to verify tokens with; default: fetched from `{baseURL}/public-key`. */
  publicKeys?: readonly string[];
  /** Seconds a permissions answer is used without asking Gatehouse again; default 0 (revalidate on every call). */
  maxAge?: number;
  /** How long a call waits for Gatehouse before it throws a `timeout` error; default 2 s to connect, 5 s for the answer. */
  timeout?: Timeouts;
  /**
   * Once a call finds Gatehouse unreachable or slow: `'fail'` (default) stops using kept permissions
   * answers until Gatehouse answers again; `'cached'` keeps using those younger than `maxAge`.
   */
  onUnavailable?: OnUnavailable;
  /**
   * This service's name (lower-case letters, digits, `-` and `_`), sent as `X-Gatehouse-Service`
   * with every call: the decision log names it on the refusals of its `authorize` calls.
   */
  service?: string;
  /** The clock, in milliseconds since the epoch, for cache ages, the key list's `max-age` and token expiry; default `Date.now`. */
  now?: () => number;
}

export interface PermissionsOptions {
  /** Seconds this call may use a kept answer without asking Gatehouse; default: the client's `maxAge`. */
  maxAge?: number;
}

export interface Gatehouse {
  /** The caller of a token, checked offline; an `UnauthenticatedError` for a forged or expired one. */
  verifyToken(token: string): Promise<TokenCaller>;
  /**
   * `POST {t}/authorize`: each check as Gatehouse would answer its request. `org` is the tenant
   * path below `baseURL`: the organization's slug (`acme`), or `{group}/{org}`.
   */
  authorize(token: string, org: string, checks: readonly AuthorizeCheck[]): Promise<AuthorizeResult[]>;
  /** `POST {t}/authorize` with `plans`: which records of each model the caller may act on, for `planToSql`. */
  plans(token: string, org: string, plans: readonly AuthorizePlanRequest[]): Promise<AuthorizePlan[]>;
  /**
   * Role, effective permissions and abilities in `org`, cached per session and organization and
   * revalidated by ETag once older than `maxAge` seconds (this call's, else the client's).
   */
  permissions(token: string, org: string, options?: PermissionsOptions): Promise<Permissions>;
  /** A `ResourcePolicy` of the service's own, bound to the caller's permissions in `org`. */
  policy<P extends ResourcePolicy<object>>(token: string, org: string, Policy: ServicePolicyClass<P>): Promise<P>;
  /** Express/Connect middleware: 401 without a genuine token, else `req.gatehouse`. */
  express(): ReturnType<typeof connectMiddleware>;
  /** A Fastify `onRequest` hook: 401 without a genuine token, else `request.gatehouse`. */
  fastify(): ReturnType<typeof fastifyHook>;
  /** Closes the kept-alive connections. */
  close(): void;
}

export function createGatehouse({ baseURL, publicKeys, maxAge = 0, timeout, onUnavailable = 'fail', service, now = Date.now }: GatehouseOptions): Gatehouse {
  const http = new HttpClient(baseURL, timeout, service);
  const verifier = new TokenVerifier(http, publicKeys, now);
  const cache = new PermissionsCache(http, now, onUnavailable);
  const verifyToken = (token: string) => verifier.verify(token);
  const askAuthorize = async <T>(token: string, org: string, body: object, expected: ExpectedAnswer<T>) =>
    (await http.json({ method: 'POST', path: `${tenantPath(org)}/authorize`, token, body }, expected)).body;
  const permissionsOf = (token: string, caller: TokenCaller, org: string, options: PermissionsOptions = {}) =>
    cache.get(token, caller.sessionId, tenantPath(org), (options.maxAge ?? maxAge) * 1000);
  return {
    verifyToken,
    authorize: async (token, org, checks) => (await askAuthorize(token, org, { checks }, authorizeResults(checks.length))).results,
    plans: async (token, org, plans) => (await askAuthorize(token, org, { plans }, authorizePlans(plans.length))).plans,
    permissions: async (token, org, options) => permissionsOf(token, await verifyToken(token), org, options),
    async policy(token, org, Policy) {
      const caller = await verifyToken(token);
      return bindPolicy(Policy, caller, await permissionsOf(token, caller, org));
    },
    express: () => connectMiddleware(verifyToken),
    fastify: () => fastifyHook(verifyToken),
    close: () => http.close(),
  };
}
