import { ConfigError } from '../config/config-error.js';
import type { GatehouseConfig } from '../config/gatehouse-config.js';
import type { ServerConfig } from '../config/server-config.js';
import type { DatabaseOptions } from '../db/database.js';
import { createLogger } from '../http/logger.js';
import type { RouteGroupConfig } from '../route-groups/route-group.js';

function booleanOf(value: string | undefined): boolean | undefined {
  const normalized = value?.trim().toLowerCase();
  if (normalized === undefined || normalized === '') return false;
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  return undefined;
}

export function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = booleanOf(env[name]);
  if (value === undefined) throw new ConfigError(`${name} must be true or false.`);
  return value;
}

// true, false, or how many proxies stand in front of the service.
function proxies(env: NodeJS.ProcessEnv, name: string): boolean | number {
  const value = env[name]?.trim() ?? '';
  const asBoolean = booleanOf(value);
  if (/^\d+$/.test(value)) return Number(value);
  if (asBoolean === undefined) throw new ConfigError(`${name} must be true, false or the number of proxies in front of the service.`);
  return asBoolean;
}

function seconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new ConfigError(`${name} must be a whole number of seconds.`);
  return parsed;
}

// Comma-separated; unset or blank keeps the default.
function list(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const items = (env[name] ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

// Without routeGroups in the config: one tenant group serving every registered model.
function defaultRouteGroups(app: GatehouseConfig): RouteGroupConfig[] {
  return [{ name: 'tenant', prefix: '{organization}', default: true, models: (app.data?.models ?? []).map((model) => model.slug) }];
}

const defined = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;

/**
 * The CLI's server: the application's config, with the environment where the config is silent
 * (the connection and the token key always come from the CLI: a connection string, or the
 * connection serviceDatabase() chose).
 */
export function envConfig(env: NodeJS.ProcessEnv, connection: string | DatabaseOptions, secretKey: string, app: GatehouseConfig = {}): ServerConfig {
  const { migrations: _migrations, seed: _seed, database, tokens, routeGroups, ...server } = app;
  const chosen = typeof connection === 'string' ? { connectionString: connection } : connection;
  return {
    database: { maxConnections: Number(env.GATEHOUSE_DB_POOL ?? 10) || 10, ...defined(database ?? {}), ...chosen },
    tokens: { ttlSeconds: seconds(env, 'GATEHOUSE_TOKEN_TTL'), ...defined(tokens ?? {}), secretKey },
    routeGroups: routeGroups ?? defaultRouteGroups(app),
    membershipEnforcement: flag(env, 'GATEHOUSE_MEMBERSHIP_ENFORCEMENT'),
    bodyLimit: env.GATEHOUSE_BODY_LIMIT || undefined,
    appUrl: env.GATEHOUSE_APP_URL || undefined,
    trustProxy: proxies(env, 'GATEHOUSE_TRUST_PROXY'),
    corsOrigins: list(env, 'GATEHOUSE_CORS_ORIGINS'),
    cors: { credentials: flag(env, 'GATEHOUSE_CORS_CREDENTIALS') },
    invitationTtlSeconds: seconds(env, 'GATEHOUSE_INVITATION_TTL'),
    passwordResetTtlSeconds: seconds(env, 'GATEHOUSE_PASSWORD_RESET_TTL'),
    logger: createLogger(env.LOG_LEVEL || 'info'),
    ...defined(server),
  };
}
