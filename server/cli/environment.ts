import { z } from 'zod';
import { ORGANIZATION_CREATORS } from '../config/organization-creation-config.js';
import { ConfigError } from '../errors/config-error.js';
import { postgresUrl, urlWith } from '../config/connection-url.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

// Unset and blank mean the same: the default.
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const whole = z.string().trim().regex(/^\d+$/, 'must be a whole number').transform(Number);
const port = whole.refine((value) => value <= 65_535, 'must be a port number (0-65535)');
const positive = (unit: string) => whole.refine((value) => value > 0, `must be a whole number of ${unit} above 0`);

// A fraction below 1 or a whole number: `fairShare`'s shares.
const share = z.string().trim().regex(/^(\d+|\d*\.\d+)$/, 'must be a fraction of the pool below 1 or a whole number of connections').transform(Number);

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];
const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => [...TRUE, ...FALSE].includes(value), 'must be true or false')
  .transform((value) => TRUE.includes(value));

// true, false, or how many proxies stand in front of the service.
const proxies = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => /^\d+$/.test(value) || [...TRUE, ...FALSE].includes(value), 'must be true, false or the number of proxies in front of the service')
  .transform((value) => (/^\d+$/.test(value) ? Number(value) : TRUE.includes(value)));

// How many connections a client may hold, or false (0, as for a flag) for no limit.
const connectionLimit = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => /^[1-9]\d*$/.test(value) || FALSE.includes(value), 'must be a whole number of connections, or false (0) for no limit')
  .transform((value) => (FALSE.includes(value) ? false : Number(value)));

const list = z.string().transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item !== ''));

const httpUrl = urlWith(['http:', 'https:'], 'must be an http(s):// URL');

const secretKey = z.string().trim().startsWith('k4.secret.', `must be a PASERK k4.secret key (\`${gatehouseCommand('keygen')}\` prints one)`);

/**
 * Every environment variable the CLI reads, parsed once before anything starts: a mistake stops
 * the command with one line naming the variable, before any migration runs or port opens.
 */
export const environmentSchema = z.object({
  NODE_ENV: optional(z.string()),
  PORT: optional(port).default(3000),
  HOST: optional(z.string()),
  DATABASE_URL: optional(postgresUrl),
  GATEHOUSE_APP_DATABASE_URL: optional(postgresUrl),
  GATEHOUSE_ALLOW_OWNER_CONNECTION: optional(flag).default(false),
  GATEHOUSE_HOME: optional(z.string()),
  GATEHOUSE_PG_PORT: optional(port),
  GATEHOUSE_DB_POOL: optional(positive('connections')).default(10),
  GATEHOUSE_DB_PREPARED_STATEMENTS: optional(flag).default(true),
  GATEHOUSE_REPLICA_URLS: optional(z.string().transform((value, context) => {
    const urls = list.parse(value);
    for (const url of urls) if (!postgresUrl.safeParse(url).success) context.addIssue({ code: 'custom', message: 'must be comma-separated connection strings postgres://user:password@host:port/database' });
    return urls;
  })),
  GATEHOUSE_REPLICA_MAX_LAG_MS: optional(positive('milliseconds')),
  GATEHOUSE_FAIR_SHARE_ORGANIZATION: optional(share),
  GATEHOUSE_FAIR_SHARE_USER: optional(share),
  GATEHOUSE_FAIR_SHARE_WAIT_MS: optional(whole),
  GATEHOUSE_PASETO_SECRET_KEY: optional(secretKey),
  GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS: optional(list),
  GATEHOUSE_TOKEN_TTL: optional(positive('seconds')),
  GATEHOUSE_INVITATION_TTL: optional(positive('seconds')),
  GATEHOUSE_PASSWORD_RESET_TTL: optional(positive('seconds')),
  GATEHOUSE_MEMBERSHIP_ENFORCEMENT: optional(flag).default(false),
  GATEHOUSE_TRUST_PROXY: optional(proxies).default(false),
  GATEHOUSE_BODY_LIMIT: optional(z.string()),
  GATEHOUSE_PUBLIC_URL: optional(httpUrl),
  GATEHOUSE_CORS_ORIGINS: optional(list),
  GATEHOUSE_CORS_CREDENTIALS: optional(flag).default(false),
  GATEHOUSE_METRICS_PORT: optional(port),
  GATEHOUSE_SHUTDOWN_GRACE: optional(positive('seconds')).default(10),
  GATEHOUSE_KEEP_ALIVE_TIMEOUT: optional(positive('seconds')),
  GATEHOUSE_HEADERS_TIMEOUT: optional(positive('seconds')),
  GATEHOUSE_BODY_TIMEOUT: optional(positive('seconds')),
  GATEHOUSE_SEND_TIMEOUT: optional(positive('seconds')),
  GATEHOUSE_STALLED_ANSWERS_MB: optional(positive('megabytes')),
  GATEHOUSE_CONNECTIONS_PER_CLIENT: optional(connectionLimit),
  GATEHOUSE_ORGANIZATION_CREATION: optional(z.enum(ORGANIZATION_CREATORS)),
  GATEHOUSE_ORGANIZATION_CREATION_PERMISSION: optional(z.string().trim()),
  GATEHOUSE_ORGANIZATION_CREATION_PER_HOUR: optional(positive('organizations')),
  GATEHOUSE_ORGANIZATION_CREATION_MAX_OWNED: optional(positive('organizations')),
  GATEHOUSE_REQUEST_TIMEOUT_MS: optional(positive('milliseconds')),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
});

export type Environment = z.output<typeof environmentSchema>;

/** Variables whose value may hold a password or a key: a mistake in one is named, never echoed (stderr ends up in logs). */
const SECRET_VARIABLES: ReadonlySet<string> = new Set(['DATABASE_URL', 'GATEHOUSE_APP_DATABASE_URL', 'GATEHOUSE_REPLICA_URLS', 'GATEHOUSE_PASETO_SECRET_KEY']);

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const parsed = environmentSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const name = String(issue?.path[0] ?? 'environment');
  const got = SECRET_VARIABLES.has(name) ? 'Its value is not shown, as it may hold a secret.' : `Got ${JSON.stringify(env[name])}.`;
  throw new ConfigError(`${name} ${issue?.message ?? 'is invalid'}. ${got}`);
}
