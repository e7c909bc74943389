import type { GatehouseConfig } from '../config/gatehouse-config.js';
import type { ServerConfig } from '../config/server-config.js';
import type { DatabaseOptions } from '../db/connection/database.js';
import { createLogger } from '../http/logger.js';
import type { RouteGroupConfig } from '../models/route-group.js';
import type { Environment } from './environment.js';

/** The config's route groups; without any, one tenant group serving every registered model. */
export function appRouteGroups(app: GatehouseConfig): readonly RouteGroupConfig[] {
  return app.routeGroups ?? [{ name: 'tenant', prefix: '{organization}', default: true, models: (app.data?.models ?? []).map((model) => model.slug) }];
}

const defined = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;

/**
 * The CLI's server: the application's config, with the environment where the config is silent
 * (the connection and the token key always come from the CLI: a connection string, or the
 * connection serviceDatabase() chose).
 */
export function envConfig(env: Environment, connection: string | DatabaseOptions, secretKey: string, app: GatehouseConfig = {}): ServerConfig {
  const { migrations: _migrations, policyTests: _policyTests, seed: _seed, database, tokens, routeGroups: _routeGroups, replicas, ...server } = app;
  const chosen = typeof connection === 'string' ? { connectionString: connection } : connection;
  return {
    database: {
      maxConnections: env.GATEHOUSE_DB_POOL,
      // Off behind a transaction pooler that cannot carry prepared statements (PgBouncer < 1.21).
      preparedStatements: env.GATEHOUSE_DB_PREPARED_STATEMENTS,
      ...defined(database ?? {}),
      ...chosen,
    },
    replicas: replicasOf(env, replicas),
    allowOwnerConnection: env.GATEHOUSE_ALLOW_OWNER_CONNECTION,
    tokens: { ttlSeconds: env.GATEHOUSE_TOKEN_TTL, previousPublicKeys: env.GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS, ...defined(tokens ?? {}), secretKey },
    routeGroups: appRouteGroups(app),
    membershipEnforcement: env.GATEHOUSE_MEMBERSHIP_ENFORCEMENT,
    bodyLimit: env.GATEHOUSE_BODY_LIMIT,
    keepAliveTimeoutSeconds: env.GATEHOUSE_KEEP_ALIVE_TIMEOUT,
    headersTimeoutSeconds: env.GATEHOUSE_HEADERS_TIMEOUT,
    bodyTimeoutSeconds: env.GATEHOUSE_BODY_TIMEOUT,
    sendTimeoutSeconds: env.GATEHOUSE_SEND_TIMEOUT,
    stalledAnswersMegabytes: env.GATEHOUSE_STALLED_ANSWERS_MB,
    connectionsPerClient: env.GATEHOUSE_CONNECTIONS_PER_CLIENT,
    requestTimeoutMs: env.GATEHOUSE_REQUEST_TIMEOUT_MS,
    appUrl: env.GATEHOUSE_PUBLIC_URL,
    trustProxy: env.GATEHOUSE_TRUST_PROXY,
    corsOrigins: env.GATEHOUSE_CORS_ORIGINS?.length ? env.GATEHOUSE_CORS_ORIGINS : undefined,
    cors: { credentials: env.GATEHOUSE_CORS_CREDENTIALS },
    invitationTtlSeconds: env.GATEHOUSE_INVITATION_TTL,
    passwordResetTtlSeconds: env.GATEHOUSE_PASSWORD_RESET_TTL,
    fairShare: defined({ organization: env.GATEHOUSE_FAIR_SHARE_ORGANIZATION, user: env.GATEHOUSE_FAIR_SHARE_USER, waitMs: env.GATEHOUSE_FAIR_SHARE_WAIT_MS }),
    logger: createLogger(env.LOG_LEVEL),
    // Served beside the API, on the same interface, never on the API's own port.
    metrics: env.GATEHOUSE_METRICS_PORT === undefined ? undefined : { port: env.GATEHOUSE_METRICS_PORT, host: env.HOST },
    ...defined(server),
    // Key by key: a config that sets some of them leaves the others to the environment.
    organizationCreation: {
      ...defined({
        allowed: env.GATEHOUSE_ORGANIZATION_CREATION,
        permission: env.GATEHOUSE_ORGANIZATION_CREATION_PERMISSION,
        perHour: env.GATEHOUSE_ORGANIZATION_CREATION_PER_HOUR,
        maxOwned: env.GATEHOUSE_ORGANIZATION_CREATION_MAX_OWNED,
      }),
      ...defined(server.organizationCreation ?? {}),
    },
  };
}

/** The config's replicas, else GATEHOUSE_REPLICA_URLS; the lag bound the config leaves out is GATEHOUSE_REPLICA_MAX_LAG_MS. */
function replicasOf(env: Environment, replicas: GatehouseConfig['replicas']): ServerConfig['replicas'] {
  const urls = replicas?.urls ?? env.GATEHOUSE_REPLICA_URLS;
  return urls?.length ? { urls, maxLagMs: replicas?.maxLagMs ?? env.GATEHOUSE_REPLICA_MAX_LAG_MS } : undefined;
}
