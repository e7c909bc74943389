import { resolveServiceResources, type ServiceResource, type ServicesConfig } from '../permissions/service-resources.js';
import type Router from '@koa/router';
import bytes from 'bytes';
import type { Logger } from 'pino';
import type { DatabaseOptions } from '../db/connection/database.js';
import { DEFAULT_REPLICA_MAX_LAG_MS, type ReplicaConfig } from '../db/replicas/replica-config.js';
import type { DataState, GatehouseState } from '../http/state.js';
import type { Mailer } from '../mail/mailer.js';
import type { DataConfig } from '../models/data-config.js';
import { modelSlugs, type ModelRegistry } from '../models/model-registry.js';
import { registerModels } from '../models/register-models.js';
import { resolveThrottleLimits, type ThrottleConfig, type ThrottleLimits, type ThrottleRule } from '../throttle/throttle-limits.js';
import { defineRouteGroups, type RouteGroup, type RouteGroupConfig } from '../models/route-group.js';
import { ConfigError } from '../errors/config-error.js';
import { resolveCors, type CorsOptions } from './cors-origins.js';
import { resolveDecisionLog, type DecisionLogConfig, type ResolvedDecisionLog } from './decision-log-config.js';
import { resolveOrganizationCreation, type OrganizationCreationConfig, type ResolvedOrganizationCreation } from './organization-creation-config.js';
import { assertRoleConditions, assertRolePermissionStrings } from './organization-role-permissions.js';
import { standbyUrls } from './standby-urls.js';
import { storedWholeNumber } from './stored-whole-number.js';
import { assertRequiredConfig } from './required-config.js';
import { LONGEST_TIMER_MS, resolveFairShare, type FairShareConfig, type ResolvedFairShare } from './fair-share-config.js';
import { DEFAULT_MAX_CONNECTIONS } from '../db/connection/database.js';

/**
 * Builds the data routes (`/{model}`, `/{model}/{id}`, ...) of one route group, or none. The
 * server mounts them under each of the group's data bases behind the group's request context
 * (authentication, membership, organization, tenant transaction, permissions), so its handlers
 * find a `DataState` in `ctx.state`; a router typed by the looser `GatehouseState` still mounts.
 */
export type DataRoutesFactory = (group: RouteGroup) => Router<DataState> | Router<GatehouseState> | undefined;

export type { DataConfig };

export interface ServerConfig {
  database: DatabaseOptions;
  /** Hot standbys that serve members' reads (`docs/operations/replicas.md`); default none: everything on `database`. */
  replicas?: ReplicaConfig;
  /**
   * Serve over a login that could leave gatehouse_app (superuser, database owner, BYPASSRLS,
   * member of other roles), with a warning at every start; default false: refused.
   */
  allowOwnerConnection?: boolean;
  tokens: {
    /** PASERK `k4.secret`: signs bearer tokens; its public half is published. */
    secretKey: string;
    /**
     * PASERK `k4.public` halves of keys rotated out: they still verify the tokens they signed until
     * those expire; removing one retires it. Default none.
     */
    previousPublicKeys?: readonly string[];
    /** Session and token lifetime; default 7 days. */
    ttlSeconds?: number;
    /** The time a token's expiry is judged by; default the wall clock (tests move their own). */
    clock?: () => Date;
  };
  routeGroups: readonly RouteGroupConfig[];
  /** 403 for callers without a membership row in the request's route group; default off. */
  membershipEnforcement?: boolean;
  /** Default `/api`. */
  basePath?: string;
  /** Largest JSON body accepted, in `bytes` notation; default `100kb`. */
  bodyLimit?: string;
  /**
   * How long an idle keep-alive connection stays open; default 65 s. Keep it above the idle
   * timeout of the load balancer in front (60 s is common): a proxy that reuses a connection the
   * service has just closed answers 502.
   */
  keepAliveTimeoutSeconds?: number;
  /** How long a client may take to send a request's headers; default 1 s above keepAliveTimeoutSeconds, and it must stay above it. */
  headersTimeoutSeconds?: number;
  /**
   * How much longer than its headers a client may take to send a request's body: the whole request
   * must have arrived within headersTimeoutSeconds + bodyTimeoutSeconds, else it is answered 408 and
   * its connection closed. Default as long as headersTimeoutSeconds.
   */
  bodyTimeoutSeconds?: number;
  /**
   * How long part of an answer may wait in the server's buffer without its client taking any of
   * it before the connection is closed, so a client that stops reading cannot hold the answer in
   * memory. Never while a request is processed. Default as long as keepAliveTimeoutSeconds.
   */
  sendTimeoutSeconds?: number;
  /**
   * How many megabytes the answers whose clients stopped taking them may hold, all connections
   * together: past it, the largest of them have their connections closed at once, before their
   * send timeout, so clients that stop reading cannot fill the process's memory. Default 64.
   */
  stalledAnswersMegabytes?: number;
  /**
   * How many connections one client address may hold open at once; a connection past it is
   * answered 429 and closed. Default 1024, and none behind trusted proxies (`trustProxy`), whose
   * addresses every client shares: the proxy in front bounds its clients there. `false`: none.
   */
  connectionsPerClient?: number | false;
  /**
   * The deadline of each statement a request runs (its transaction's `statement_timeout`), in
   * milliseconds; past it the request answers 503 with `Retry-After` and writes nothing. Default 5000.
   */
  requestTimeoutMs?: number;
  /** Origin that links in mails point to (the front end); default the URL the server listens on. */
  appUrl?: string;
  /**
   * Where queued mail is delivered (invitations, password resets), with retries: see
   * mail_queue. Default: kept in the mail_outbox table and logged.
   */
  mailer?: Mailer;
  logger?: Logger;
  /**
   * Prometheus metrics (`docs/operations/metrics-and-tracing.md`), served at `/metrics` on `port`
   * (0 picks a free one; `host` defaults to the API's), never on the API's own port. Default off.
   */
  metrics?: { port: number; host?: string };
  /**
   * Spans of Gatehouse's own (the request, its opening and statements, the policy evaluation)
   * sent to the OpenTelemetry SDK the process registered. Default off.
   */
  tracing?: boolean;
  /**
   * Trust X-Forwarded-* headers (client address for throttling, host for domain groups): the
   * number of proxies in front of the service, each appending to X-Forwarded-For; `true` is one.
   * The client address is the one the outermost trusted proxy saw, so a client cannot choose it.
   */
  trustProxy?: boolean | number;
  /** Browser apps that may call the API: `origins` default `['*']`, any (`[]` none); `credentials` default false, needs listed origins. */
  cors?: Partial<CorsOptions>;
  /** The short form of `cors.origins`. */
  corsOrigins?: readonly string[];
  /**
   * Attempt limits per action, per email and per client address, shared by every instance
   * through the database; each rule given replaces its default (see DEFAULT_THROTTLE_LIMITS).
   */
  throttle?: ThrottleConfig;
  /** Shorthand for `throttle.login.email`: failures per email and address; default 5 in 60 seconds. */
  loginThrottle?: ThrottleRule;
  /** Default 7 days. */
  invitationTtlSeconds?: number;
  /** Default 1 hour. */
  passwordResetTtlSeconds?: number;
  /** Role slug a new organization's creator receives; default `owner`. */
  ownerRole?: string;
  /** Role permissions a new organization starts with, by role slug; default `{owner: ['*']}`. */
  organizationRoles?: Readonly<Record<string, readonly string[]>>;
  /**
   * Who may create organizations over HTTP, and how many one user may create per hour and own
   * at once, counted in the database so every instance shares them. Default: any signed-in
   * user, 5 per hour, 20 owned. `gatehouse org create` is never limited.
   */
  organizationCreation?: OrganizationCreationConfig;
  /** Registered models and policies; also described at `GET {basePath}/openapi.json`. */
  data?: DataConfig;
  /** Data routes of your own instead of `data`. */
  dataRoutes?: DataRoutesFactory;
  /**
   * Folder of a built browser app (e.g. Vite's `dist`), served at `/` outside `basePath`; every
   * other page path gets its `index.html`. Default none.
   */
  webRoot?: string;
  /** `responses: false` leaves the `reason` out of 403 answers; default on. */
  explain?: { responses?: boolean };
  /** Where refused requests are recorded besides the request log (`docs/guides/why-refused.md`). */
  decisionLog?: DecisionLogConfig;
  /**
   * The most of the database pool one organization, and one user, may hold at once (a fraction
   * below 1 or a number of connections), and how long a request past it waits before its 429.
   * Default half the pool, a quarter, 3000 ms.
   */
  fairShare?: FairShareConfig;
  /**
   * Resources of other services, by service: `{billing: {resources: {invoices: ['index',
   * 'approve']}}}`; more can be registered at run time (`docs/guides/other-services.md`).
   */
  services?: ServicesConfig;
  /**
   * Who writes the records' JSON of index and trash pages: `node` (the default) Node, `postgres`
   * PostgreSQL where the answer is the same byte for byte (`docs/architecture/record-json.md`): it
   * moves that work to the database, which measured no cheaper on one machine shared by both.
   */
  recordJson?: 'postgres' | 'node';
}

export interface ResolvedConfig {
  database: DatabaseOptions;
  /** Null: no replica, every read on the primary. */
  replicas: Required<ReplicaConfig> | null;
  allowOwnerConnection: boolean;
  tokens: { secretKey: string; previousPublicKeys: readonly string[]; ttlSeconds: number };
  routeGroups: RouteGroup[];
  membershipEnforcement: boolean;
  basePath: string;
  bodyLimit: string;
  keepAliveTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
  sendTimeoutSeconds: number;
  stalledAnswersMegabytes: number;
  /** Null: no limit. */
  connectionsPerClient: number | null;
  requestTimeoutMs: number;
  /** Unset: the URL the server listens on (`Services.publicUrl()`). */
  appUrl: string | undefined;
  /** Proxies trusted in front of the service; 0 for none. */
  trustProxy: number;
  cors: CorsOptions;
  throttle: ThrottleLimits;
  invitationTtlSeconds: number;
  passwordResetTtlSeconds: number;
  ownerRole: string;
  organizationRoles: Readonly<Record<string, readonly string[]>>;
  organizationCreation: ResolvedOrganizationCreation;
  /** The registered models, checked against the groups; the app serves them with the generic data routes. */
  models: ModelRegistry | undefined;
  /** The application's own data routes, instead of `models`. */
  dataRoutes: DataRoutesFactory | undefined;
  webRoot: string | undefined;
  explain: { responses: boolean };
  decisionLog: ResolvedDecisionLog;
  fairShare: ResolvedFairShare;
  /** The resources of other services the configuration declares. */
  services: readonly ServiceResource[];
  recordJson: 'postgres' | 'node';
}

const DAY = 24 * 60 * 60;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number.`);
  return value;
}

// A number of bytes, or of kb, mb, ... as `bytes` reads them. It reads anything else as nothing, or
// as its leading digits ('1e6' is 1 byte), and the body parsers take nothing for no limit at all.
const SIZE = /^(\d+|\d+(\.\d+)? *(b|kb|mb|gb|tb|pb))$/i;

function bodySize(value: string): string {
  if (!SIZE.test(value) || !((bytes.parse(value) ?? 0) >= 1)) throw new ConfigError(`bodyLimit must be a size such as 100kb or 1mb; got ${JSON.stringify(value)}.`);
  return value;
}

const DEFAULT_KEEP_ALIVE_SECONDS = 65;
// Node times an idle connection for the keep-alive timeout and a second more, on a timer: a
// longer one than a timer runs is cut short, with a warning on every connection.
const LONGEST_KEEP_ALIVE_SECONDS = Math.floor((LONGEST_TIMER_MS - 1000) / 1000);
const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
const DEFAULT_STALLED_ANSWERS_MEGABYTES = 64;
const DEFAULT_CONNECTIONS_PER_CLIENT = 1024;

function connectionsPerClient(configured: number | false | undefined, trustProxy: number): number | null {
  if (configured === false) return null;
  if (configured === undefined) return trustProxy > 0 ? null : DEFAULT_CONNECTIONS_PER_CLIENT;
  if (!Number.isSafeInteger(configured) || configured <= 0) throw new ConfigError('connectionsPerClient must be a whole number above 0, or false.');
  return configured;
}

function httpTimeouts(config: ServerConfig): Pick<ResolvedConfig, 'keepAliveTimeoutSeconds' | 'headersTimeoutSeconds' | 'bodyTimeoutSeconds' | 'sendTimeoutSeconds'> {
  const keepAliveTimeoutSeconds = positive('keepAliveTimeoutSeconds', config.keepAliveTimeoutSeconds ?? DEFAULT_KEEP_ALIVE_SECONDS);
  if (keepAliveTimeoutSeconds > LONGEST_KEEP_ALIVE_SECONDS) {
    throw new ConfigError(`keepAliveTimeoutSeconds must be at most ${LONGEST_KEEP_ALIVE_SECONDS} seconds, the longest Node times an idle connection.`);
  }
  const headersTimeoutSeconds = positive('headersTimeoutSeconds', config.headersTimeoutSeconds ?? keepAliveTimeoutSeconds + 1);
  // Node's advice: a headers timeout at or below the keep-alive one can cut a reused connection's next request.
  if (headersTimeoutSeconds <= keepAliveTimeoutSeconds) throw new ConfigError('headersTimeoutSeconds must be above keepAliveTimeoutSeconds.');
  const bodyTimeoutSeconds = positive('bodyTimeoutSeconds', config.bodyTimeoutSeconds ?? headersTimeoutSeconds);
  // A connection that moves nothing either way is idle whether or not an answer waits on it.
  const sendTimeoutSeconds = positive('sendTimeoutSeconds', config.sendTimeoutSeconds ?? keepAliveTimeoutSeconds);
  return { keepAliveTimeoutSeconds, headersTimeoutSeconds, bodyTimeoutSeconds, sendTimeoutSeconds };
}

function proxyCount(trustProxy: boolean | number): number {
  if (typeof trustProxy === 'boolean') return trustProxy ? 1 : 0;
  if (!Number.isSafeInteger(trustProxy) || trustProxy < 0) throw new ConfigError('trustProxy must be true, false or a number of proxies.');
  return trustProxy;
}

/** The roles a new organization starts with: also what the CLI's `org create` reads of a config. */
export function resolveOrganizationRoles(config: Pick<ServerConfig, 'ownerRole' | 'organizationRoles'>): Pick<ResolvedConfig, 'ownerRole' | 'organizationRoles'> {
  const ownerRole = config.ownerRole ?? 'owner';
  const organizationRoles = config.organizationRoles ?? { [ownerRole]: ['*'] };
  if (!(ownerRole in organizationRoles)) throw new ConfigError(`organizationRoles must configure the owner role ${ownerRole}.`);
  assertRolePermissionStrings(organizationRoles);
  return { ownerRole, organizationRoles };
}

export function resolveConfig(config: ServerConfig): ResolvedConfig {
  assertRequiredConfig(config);
  const { ownerRole, organizationRoles } = resolveOrganizationRoles(config);
  const basePath = `/${(config.basePath ?? '/api').replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const routeGroups = defineRouteGroups(config.routeGroups);
  if (config.data && config.dataRoutes) throw new ConfigError('Configure either data or dataRoutes, not both.');
  const models = config.data ? registerModels(config.data, routeGroups) : undefined;
  assertRoleConditions(organizationRoles, models);
  const trustProxy = proxyCount(config.trustProxy ?? false);
  return {
    database: config.database,
    replicas: config.replicas?.urls.length ? { urls: standbyUrls(config.replicas.urls), maxLagMs: positive('replicas.maxLagMs', config.replicas.maxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS) } : null,
    allowOwnerConnection: config.allowOwnerConnection ?? false,
    tokens: { secretKey: config.tokens.secretKey, previousPublicKeys: config.tokens.previousPublicKeys ?? [], ttlSeconds: positive('tokens.ttlSeconds', config.tokens.ttlSeconds ?? 7 * DAY) },
    routeGroups,
    membershipEnforcement: config.membershipEnforcement ?? false,
    basePath,
    bodyLimit: bodySize(config.bodyLimit ?? '100kb'),
    ...httpTimeouts(config),
    stalledAnswersMegabytes: positive('stalledAnswersMegabytes', config.stalledAnswersMegabytes ?? DEFAULT_STALLED_ANSWERS_MEGABYTES),
    connectionsPerClient: connectionsPerClient(config.connectionsPerClient, trustProxy),
    // Every request's opening sets it as its statement_timeout (0 would mean none).
    requestTimeoutMs: storedWholeNumber('requestTimeoutMs', config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, 'milliseconds'),
    appUrl: config.appUrl?.replace(/\/+$/, ''),
    trustProxy,
    cors: resolveCors(config.cors, config.corsOrigins),
    throttle: resolveThrottleLimits(config.loginThrottle ? { ...config.throttle, login: { ...config.throttle?.login, email: config.loginThrottle } } : config.throttle),
    invitationTtlSeconds: positive('invitationTtlSeconds', config.invitationTtlSeconds ?? 7 * DAY),
    passwordResetTtlSeconds: positive('passwordResetTtlSeconds', config.passwordResetTtlSeconds ?? 60 * 60),
    ownerRole,
    organizationRoles,
    organizationCreation: resolveOrganizationCreation(config.organizationCreation),
    models,
    dataRoutes: config.dataRoutes,
    webRoot: config.webRoot,
    explain: { responses: config.explain?.responses ?? true },
    decisionLog: resolveDecisionLog(config.decisionLog),
    fairShare: resolveFairShare(config.fairShare, config.database.maxConnections ?? DEFAULT_MAX_CONNECTIONS),
    services: resolveServiceResources(config.services, modelSlugs(models)),
    recordJson: config.recordJson ?? 'node',
  };
}
