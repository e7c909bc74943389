import { demoData } from '../../policies/demo-data.js';
import { ConfigError } from '../config/config-error.js';
import type { ServerConfig } from '../config/server-config.js';
import { DEMO_ROLES } from '../db/demo-seed.js';
import { createLogger } from '../http/logger.js';
import { DEMO_ROUTE_GROUPS } from './demo-route-groups.js';

function booleanOf(value: string | undefined): boolean | undefined {
  const normalized = value?.trim().toLowerCase();
  if (normalized === undefined || normalized === '') return false;
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  return undefined;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
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

/** The CLI's server: the demo route groups, roles, models and policies, the rest from the environment. */
export function envConfig(env: NodeJS.ProcessEnv, connectionString: string, secretKey: string): ServerConfig {
  return {
    database: { connectionString, maxConnections: Number(env.GATEHOUSE_DB_POOL ?? 10) || 10 },
    tokens: { secretKey, ttlSeconds: seconds(env, 'GATEHOUSE_TOKEN_TTL') },
    routeGroups: DEMO_ROUTE_GROUPS,
    membershipEnforcement: flag(env, 'GATEHOUSE_MEMBERSHIP_ENFORCEMENT'),
    bodyLimit: env.GATEHOUSE_BODY_LIMIT || undefined,
    appUrl: env.GATEHOUSE_APP_URL || undefined,
    trustProxy: proxies(env, 'GATEHOUSE_TRUST_PROXY'),
    corsOrigins: list(env, 'GATEHOUSE_CORS_ORIGINS'),
    invitationTtlSeconds: seconds(env, 'GATEHOUSE_INVITATION_TTL'),
    passwordResetTtlSeconds: seconds(env, 'GATEHOUSE_PASSWORD_RESET_TTL'),
    logger: createLogger(env.LOG_LEVEL || 'info'),
    organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
    data: demoData,
  };
}
