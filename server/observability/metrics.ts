import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { PoolConnections } from '../db/connection/database.js';
import { statementCache } from '../db/statements/statement-cache.js';
import { THROTTLED_ACTIONS, type ThrottledAction } from '../throttle/throttle-limits.js';
import { DECISION_GATES, type DecisionGate } from '@gatehouse/engine';
import { PreboundHistogram } from './prebound-histogram.js';
import { SHARES } from '../errors/fair-share-exceeded-error.js';
import type { FairShareStats } from '../tenancy/fair-shares.js';

const OUTCOMES = ['allowed', 'denied'] as const;
type Outcome = (typeof OUTCOMES)[number];

// Answers of this service take from about a millisecond to seconds: finer steps at the fast end.
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// prom-client's defaults name three gauges `_total`, which Prometheus keeps for counters (promtool
// refuses them); each only sums the by-type gauge beside it (`nodejs_active_handles`, ...).
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** A count per key, from zero: counting adds to a number, and the counter reads them when scraped. */
const tally = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

/** One series of a counter read when scraped: its labels and its count so far. */
type Scraped<L extends string> = readonly [labels: Partial<Record<L, string>>, count: number];

/**
 * A counter whose counts live elsewhere (a tally, the statement cache, the decision log's stats)
 * and are read only when Prometheus scrapes: counting costs a request no label lookup, and every
 * series `read` names is reported, from zero.
 */
function scrapedCounter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[], read: () => readonly Scraped<L>[]): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, count] of read()) this.inc(labels, count);
    },
  });
}

/**
 * The service's Prometheus metrics, in a registry of their own (never prom-client's global one,
 * so two servers in one process each report their own). No label carries a user, an
 * organization, an email or a raw path: only methods, route templates, status classes, route
 * group names, gates, outcomes, throttled actions, pool states and fair shares, all from fixed sets.
 */
export class GatehouseMetrics {
  readonly registry = new Registry();
  readonly requestDuration = new PreboundHistogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by method, route template, status class and route group.',
    labelNames: ['method', 'route', 'status_class', 'route_group'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly transactionDuration = new PreboundHistogram({
    name: 'gatehouse_tenant_transaction_duration_seconds',
    help: 'Time a request holds its transaction (and its pooled connection), from the opening to COMMIT or ROLLBACK.',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  }).series();
  // Requests only add to these numbers; their counters read them when scraped.
  readonly #decisions = Object.fromEntries(DECISION_GATES.map((gate) => [gate, tally(OUTCOMES)])) as Record<DecisionGate, Record<Outcome, number>>;
  readonly #throttled = tally(THROTTLED_ACTIONS);
  #sessions = 0;

  constructor(connections: () => PoolConnections) {
    collectDefaultMetrics({ register: this.registry });
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
    scrapedCounter(
      this.registry,
      'gatehouse_decisions_total',
      'Authorization decisions by gate and outcome: every policy evaluation, and every refusal by the gate that refused.',
      ['gate', 'outcome'],
      () => DECISION_GATES.flatMap((gate) => OUTCOMES.map((outcome) => [{ gate, outcome }, this.#decisions[gate][outcome]] as const)),
    );
    scrapedCounter(this.registry, 'gatehouse_throttle_rejections_total', 'Attempts refused with 429 by the attempt limits, by action.', ['action'], () =>
      THROTTLED_ACTIONS.map((action) => [{ action }, this.#throttled[action]] as const),
    );
    scrapedCounter(this.registry, 'gatehouse_sessions_created_total', 'Sessions started by a login or a registration.', [], () => [[{}, this.#sessions]]);
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
    scrapedCounter(this.registry, 'gatehouse_statement_cache_total', "Statements found compiled (hit) or compiled anew (miss) in the process's statement cache.", ['result'], () => [
      [{ result: 'hit' }, statementCache.hits],
      [{ result: 'miss' }, statementCache.compilations],
    ]);
  }

  /** Each replica's lag and the reads it served, and the reads the primary served instead (`docs/operations/replicas.md`). */
  watchReplicas(stats: () => { readonly replicas: readonly { name: string; lagSeconds: number; reads: number }[]; readonly primaryReads: number }): void {
    new Gauge({
      name: 'gatehouse_replica_lag_seconds',
      help: 'How far each read replica is behind the primary, as of its last poll (+Inf: unreachable, or no standby).',
      labelNames: ['replica'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { name, lagSeconds } of stats().replicas) this.set({ replica: name }, lagSeconds);
      },
    });
    scrapedCounter(this.registry, 'gatehouse_replica_reads_total', 'Members\' reads by the server that served them: each replica by host:port, or primary.', ['server'], () => {
      const { replicas, primaryReads } = stats();
      return [...replicas.map(({ name, reads }) => [{ server: name }, reads] as const), [{ server: 'primary' }, primaryReads] as const];
    });
  }

  /**
   * The stored decision log's queue (`decisionLog: {store: 'database'}`): what it wrote, what it
   * dropped past its queue limit or on a refused batch, what it left out past an organization's
   * share of the minute, and what waits.
   */
  watchDecisionLog(stats: () => { readonly queued: number; readonly written: number; readonly dropped: number; readonly overShare: number }): void {
    scrapedCounter(
      this.registry,
      'gatehouse_decision_log_events_total',
      'Refusals the stored decision log wrote, dropped (its queue was full or the database refused a batch), or left out past their organization\'s share of the minute (over_share).',
      ['result'],
      () => {
        const { written, dropped, overShare } = stats();
        return [
          [{ result: 'written' }, written],
          [{ result: 'dropped' }, dropped],
          [{ result: 'over_share' }, overShare],
        ];
      },
    );
    new Gauge({
      name: 'gatehouse_decision_log_queue',
      help: 'Refusals waiting to be written to the stored decision log.',
      registers: [this.registry],
      collect() {
        this.set(stats().queued);
      },
    });
  }

  /** The fair shares of the pool: requests that waited for their share, were refused past it, wait now. */
  watchFairShares(stats: () => FairShareStats): void {
    scrapedCounter(this.registry, 'gatehouse_fair_share_waits_total', "Requests that found their organization's, user's or (a guest's) address's share of the pool full and waited, by share.", ['share'], () =>
      SHARES.map((share) => [{ share }, stats().waited[share]] as const),
    );
    scrapedCounter(this.registry, 'gatehouse_fair_share_refusals_total', "Requests answered 429 because their organization's, user's or (a guest's) address's share of the pool stayed full, by share.", ['share'], () =>
      SHARES.map((share) => [{ share }, stats().refused[share]] as const),
    );
    new Gauge({
      name: 'gatehouse_fair_share_waiting',
      help: 'Requests waiting now for their share of the pool.',
      registers: [this.registry],
      collect() {
        this.set(stats().waiting);
      },
    });
  }

  decided(gate: DecisionGate, allowed: boolean): void {
    this.#decisions[gate][allowed ? 'allowed' : 'denied'] += 1;
  }

  throttled(action: ThrottledAction): void {
    this.#throttled[action] += 1;
  }

  sessionCreated(): void {
    this.#sessions += 1;
  }

  /** The exposition text Prometheus scrapes. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
