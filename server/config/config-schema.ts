import { z } from 'zod';
import { THROTTLED_ACTIONS } from '../throttle/throttle-limits.js';
import type { GatehouseConfig } from './gatehouse-config.js';
import { optionProblem } from '../errors/option-problem.js';
import { postgresUrl, standbyUrl } from './connection-url.js';
import { DECISION_STORES } from './decision-log-config.js';
import { ORGANIZATION_CREATORS } from './organization-creation-config.js';
import { servicesConfigSchema } from '../permissions/service-resources.js';

const positiveInteger = z.number().int().positive();
const strings = z.array(z.string());
const fn = (what: string) => z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', { message: `must be ${what}` });
const objectWith = (method: string) =>
  z.custom<object>((value) => typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function', {
    message: `must be an object with a ${method}() method`,
  });
const modelDefinition = z.custom<object>(
  (value) => typeof value === 'object' && value !== null && typeof (value as { slug?: unknown }).slug === 'string' && 'tenantOwned' in value,
  { message: 'must be a model made with defineModel' },
);

const throttleRule = z.strictObject({ maxAttempts: positiveInteger, decaySeconds: positiveInteger });
const throttle = z.strictObject(
  Object.fromEntries(THROTTLED_ACTIONS.map((action) => [action, z.strictObject({ email: throttleRule.optional(), address: throttleRule.optional() }).optional()])),
);

const routeGroup = z.strictObject({
  name: z.string(),
  prefix: z.string().optional(),
  domain: z.string().optional(),
  tenancy: z.enum(['path', 'subdomain', 'none']).optional(),
  auth: z.boolean().optional(),
  models: strings.optional(),
  default: z.boolean().optional(),
});

/**
 * The one schema of `gatehouse.config.ts`: the `createServer` options (the connection and the
 * token key optional, the environment gives them otherwise), the migrations folder and the seed.
 * Strict at every level, so a misspelt key is named instead of ignored.
 */
export const configSchema = z.strictObject({
  database: z
    .strictObject({ connectionString: postgresUrl.optional(), maxConnections: positiveInteger.optional(), startupRole: z.boolean().optional(), preparedStatements: z.boolean().optional() })
    .optional(),
  replicas: z.strictObject({ urls: z.array(standbyUrl), maxLagMs: positiveInteger.optional() }).optional(),
  allowOwnerConnection: z.boolean().optional(),
  tokens: z.strictObject({ secretKey: z.string().optional(), previousPublicKeys: z.array(z.string()).optional(), ttlSeconds: positiveInteger.optional() }).optional(),
  routeGroups: z.array(routeGroup).optional(),
  membershipEnforcement: z.boolean().optional(),
  basePath: z.string().optional(),
  bodyLimit: z.string().optional(),
  keepAliveTimeoutSeconds: positiveInteger.optional(),
  headersTimeoutSeconds: positiveInteger.optional(),
  bodyTimeoutSeconds: positiveInteger.optional(),
  sendTimeoutSeconds: positiveInteger.optional(),
  stalledAnswersMegabytes: positiveInteger.optional(),
  connectionsPerClient: z.union([positiveInteger, z.literal(false)]).optional(),
  requestTimeoutMs: positiveInteger.optional(),
  appUrl: z.url().optional(),
  mailer: objectWith('send').optional(),
  logger: objectWith('info').optional(),
  metrics: z.strictObject({ port: z.number().int().min(0).max(65_535), host: z.string().optional() }).optional(),
  tracing: z.boolean().optional(),
  trustProxy: z.union([z.boolean(), z.number().int().nonnegative()]).optional(),
  cors: z.strictObject({ origins: strings.optional(), credentials: z.boolean().optional() }).optional(),
  corsOrigins: strings.optional(),
  throttle: throttle.optional(),
  loginThrottle: throttleRule.optional(),
  invitationTtlSeconds: positiveInteger.optional(),
  passwordResetTtlSeconds: positiveInteger.optional(),
  ownerRole: z.string().optional(),
  organizationRoles: z.record(z.string(), strings).optional(),
  organizationCreation: z
    .strictObject({ allowed: z.enum(ORGANIZATION_CREATORS).optional(), permission: z.string().optional(), perHour: positiveInteger.optional(), maxOwned: positiveInteger.optional() })
    .optional(),
  data: z.strictObject({ models: z.array(modelDefinition), policies: z.record(z.string(), fn('a policy class')).optional() }).optional(),
  dataRoutes: fn('a function').optional(),
  webRoot: z.string().optional(),
  explain: z.strictObject({ responses: z.boolean().optional() }).optional(),
  decisionLog: z
    .strictObject({
      store: z.enum(DECISION_STORES).optional(),
      retentionDays: positiveInteger.optional(),
      queueLimit: positiveInteger.optional(),
      batchSize: positiveInteger.optional(),
      organizationPerMinute: positiveInteger.optional(),
    })
    .optional(),
  fairShare: z.strictObject({ organization: z.number().positive().optional(), user: z.number().positive().optional(), waitMs: z.number().int().nonnegative().optional() }).optional(),
  services: servicesConfigSchema.optional(),
  recordJson: z.enum(['postgres', 'node']).optional(),
  migrations: z.string().optional(),
  policyTests: z.string().optional(),
  seed: fn('a function (ownerConnectionString) => Promise<boolean>').optional(),
});

/** Validates a config file's export; the result is the config as the CLI uses it. */
export function parseConfig(value: unknown): { config: GatehouseConfig } | { problem: string } {
  const parsed = configSchema.safeParse(value);
  return parsed.success ? { config: value as GatehouseConfig } : { problem: optionProblem(parsed.error, value) };
}

type Unlisted = Exclude<keyof GatehouseConfig, keyof z.infer<typeof configSchema>>;
/** Fails to compile when GatehouseConfig gains a key the schema does not list (it would be refused as unknown). */
export const EVERY_CONFIG_KEY_LISTED: [Unlisted] extends [never] ? true : { unlisted: Unlisted } = true;
