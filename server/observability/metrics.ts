import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolConnections } from '../db/database.js';
import { statementCache } from '../db/statement-cache.js';
import { THROTTLED_ACTIONS, type ThrottledAction } from '../throttle/throttle-limits.js';
import { DECISION_GATES, type DecisionGate } from './decision-gates.js';

// Answers of this service take from about a millisecond to seconds: finer steps at the fast end.
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labelled<T> = Record<string, T>;

/** One child per label value, made up front so counting never builds a label object. */
const children = <K extends string, T>(keys: readonly K[], child: (key: K) => T): Record<K, T> =>
  Object.fromEntries(keys.map((key) => [key, child(key)])) as Record<K, T>;

/**
 * The service's Prometheus metrics, in a registry of their own (never prom-client's global one,
 * so two servers in one process each report their own). No label carries a user, an
 * organization, an email or a raw path: only methods, route templates, status classes, route
 * group names, gates, outcomes, throttled actions and pool states, all from fixed sets.
 */
export class GatehouseMetrics {
  readonly registry = new Registry();
  readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by method, route template, status class and route group.',
    labelNames: ['method', 'route', 'status_class', 'route_group'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly transactionDuration = new Histogram({
    name: 'gatehouse_tenant_transaction_duration_seconds',
    help: 'Time a request holds its transaction (and its pooled connection), from the opening to COMMIT or ROLLBACK.',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  }).labels();
  readonly #decisions: Labelled<{ allowed: Counter.Internal; denied: Counter.Internal }>;
  readonly #throttled: Record<ThrottledAction, Counter.Internal>;
  readonly #sessions: Counter.Internal;

  constructor(connections: () => PoolConnections) {
    collectDefaultMetrics({ register: this.registry });
    const decisions = new Counter({
      name: 'gatehouse_decisions_total',
      help: 'Authorization decisions by gate and outcome: every policy evaluation, and every refusal by the gate that refused.',
      labelNames: ['gate', 'outcome'] as const,
      registers: [this.registry],
    });
    this.#decisions = children(DECISION_GATES, (gate) => ({ allowed: decisions.labels(gate, 'allowed'), denied: decisions.labels(gate, 'denied') }));
    const throttled = new Counter({
      name: 'gatehouse_throttle_rejections_total',
      help: 'Attempts refused with 429 by the attempt limits, by action.',
      labelNames: ['action'] as const,
      registers: [this.registry],
    });
    this.#throttled = children(THROTTLED_ACTIONS, (action) => throttled.labels(action));
    this.#sessions = new Counter({ name: 'gatehouse_sessions_created_total', help: 'Sessions started by a login or a registration.', registers: [this.registry] }).labels();
    new Gauge({
      name: 'gatehouse_db_pool_connections',
      help: "The database pool's connections: open (total), idle, and requests waiting for one.",
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const now = connections();
        this.set({ state: 'total' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
    new Counter({
      name: 'gatehouse_statement_cache_total',
      help: "Statements found compiled (hit) or compiled anew (miss) in the process's statement cache.",
      labelNames: ['result'] as const,
      registers: [this.registry],
      // The cache counts anyway; reading its totals at scrape time costs the requests nothing.
      collect() {
        this.reset();
        this.inc({ result: 'hit' }, statementCache.hits);
        this.inc({ result: 'miss' }, statementCache.compilations);
      },
    });
  }

  decided(gate: DecisionGate, allowed: boolean): void {
    const counters = this.#decisions[gate]!;
    (allowed ? counters.allowed : counters.denied).inc();
  }

  throttled(action: ThrottledAction): void {
    this.#throttled[action].inc();
  }

  sessionCreated(): void {
    this.#sessions.inc();
  }

  /** The exposition text Prometheus scrapes. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
