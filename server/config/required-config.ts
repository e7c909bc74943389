import { ConfigError } from '../errors/config-error.js';

// What createServer cannot start without (docs/reference/configuration.md marks them required).
const REQUIRED = ['database.connectionString', 'tokens.secretKey', 'routeGroups'] as const;

const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined);

/**
 * Names the required options a config lacks, every one of them when it is no object at all: a
 * JavaScript caller's `createServer()` would otherwise fail on a TypeError that names none.
 */
export function assertRequiredConfig(config: unknown): void {
  const missing = REQUIRED.filter((path) => path.split('.').reduce(field, config) === undefined);
  if (missing.length > 0) throw new ConfigError(`The config of createServer has no ${missing.join(', ')}: ${missing.length > 1 ? 'they are' : 'it is'} required.`);
}
