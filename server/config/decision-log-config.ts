import { ConfigError } from '../errors/config-error.js';

/** `log`: refusals go to the request log only; `database`: also to the tenant's `decision_logs` table. */
export const DECISION_STORES = ['log', 'database'] as const;

export interface DecisionLogConfig {
  /** Default `log`. */
  store?: (typeof DECISION_STORES)[number];
  /** Stored decisions older than this are deleted; default 30. */
  retentionDays?: number;
  /** Decisions waiting to be stored; beyond it new ones are dropped and counted. Default 10 000. */
  queueLimit?: number;
  /** Decisions written per insert; default 500. */
  batchSize?: number;
  /** Refusals stored per organization in each minute; beyond it they are counted, not stored. Default 100. */
  organizationPerMinute?: number;
}

export type ResolvedDecisionLog = Required<DecisionLogConfig>;

export const DECISION_LOG_DEFAULTS: ResolvedDecisionLog = { store: 'log', retentionDays: 30, queueLimit: 10_000, batchSize: 500, organizationPerMinute: 100 };

export function resolveDecisionLog(config: DecisionLogConfig = {}): ResolvedDecisionLog {
  const resolved = { ...DECISION_LOG_DEFAULTS, ...config };
  for (const key of ['retentionDays', 'queueLimit', 'batchSize', 'organizationPerMinute'] as const) {
    if (!Number.isSafeInteger(resolved[key]) || resolved[key] <= 0) throw new ConfigError(`decisionLog.${key} must be a positive integer.`);
  }
  return resolved;
}
