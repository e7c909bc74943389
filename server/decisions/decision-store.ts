import { setImmediate as afterIo } from 'node:timers/promises';
import type { Logger } from 'pino';
import { sql } from 'kysely';
import type { ResolvedDecisionLog } from '../config/decision-log-config.js';
import type { Executor } from '../db/repositories/executor.js';
import { withTenant } from '../db/transactions/tenant-transaction.js';
import type { DecisionEvent } from './decision-event.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface DecisionStoreStats {
  /** Waiting to be written. */
  readonly queued: number;
  readonly written: number;
  /** Dropped because the queue was full or the database refused a batch. */
  readonly dropped: number;
  /** Not stored because their organization had its share of the minute already. */
  readonly overShare: number;
}

const MINUTE_MS = 60 * 1000;

type Stored = DecisionEvent & { readonly organization_id: number };

/**
 * Writes refusals to the tenant's `decision_logs` after the answers: a request only appends to a
 * queue in memory, a writer empties it in batches (one transaction per organization, in its
 * tenant context). The queue is bounded: a flood beyond `queueLimit` is dropped and counted, so
 * memory stays bounded and no request ever waits for, or fails with, the log; so is each
 * organization's share of it, `organizationPerMinute` refusals a minute. Once started, the
 * writer also deletes what is older than `retentionDays`, then every hour, refusals or none.
 */
export class DecisionStore {
  private queue: Stored[] = [];
  private writing: Promise<void> | null = null;
  private counts = { written: 0, dropped: 0, overShare: 0 };
  /** Refusals of this minute, per organization: what counts against `organizationPerMinute`. */
  private minute = { started: 0, stored: new Map<number, number>() };
  private prunedAt = 0;
  /** Dropping since the queue last filled: warned of once per flood, not once per refusal. */
  private overflowing = false;
  private pruning: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Executor,
    private readonly options: ResolvedDecisionLog,
    private readonly logger: Logger,
  ) {}

  /** Prunes now and every hour, so old refusals go even while no new one wakes the writer. */
  start(): void {
    this.wake();
    this.pruning = setInterval(() => this.wake(), HOUR_MS).unref();
  }

  /** Stops the hourly pruning and writes what is queued. */
  async close(): Promise<void> {
    if (this.pruning !== null) clearInterval(this.pruning);
    this.pruning = null;
    await this.drain();
  }

  /** Queues an organization's refusal; one without an organization has no tenant to go to. */
  add(event: DecisionEvent): void {
    if (event.organization_id === null || !this.withinShare(event.organization_id)) return;
    if (this.queue.length >= this.options.queueLimit) {
      this.counts.dropped += 1;
      if (!this.overflowing) this.logger.warn({ queueLimit: this.options.queueLimit }, 'decision log queue full: refusals are dropped until it drains');
      this.overflowing = true;
      return;
    }
    this.overflowing = false;
    this.queue.push(event as Stored);
    this.wake();
  }

  /**
   * Counts a refusal against its organization's share of this minute (fixed minutes of this
   * process's clock): one tenant's flood of refusals cannot fill the table, or the queue the
   * others share. The first refusal past a share in a minute logs a warning.
   */
  private withinShare(organizationId: number): boolean {
    const now = Date.now();
    if (now - this.minute.started >= MINUTE_MS) this.minute = { started: now - (now % MINUTE_MS), stored: new Map() };
    const stored = this.minute.stored.get(organizationId) ?? 0;
    if (stored < this.options.organizationPerMinute) {
      this.minute.stored.set(organizationId, stored + 1);
      return true;
    }
    this.counts.overShare += 1;
    if (stored === this.options.organizationPerMinute) {
      this.minute.stored.set(organizationId, stored + 1);
      this.logger.warn({ organizationId, organizationPerMinute: this.options.organizationPerMinute }, 'decision log share reached: this organization\'s further refusals this minute are counted, not stored');
    }
    return false;
  }

  stats(): DecisionStoreStats {
    return { queued: this.queue.length, ...this.counts };
  }

  /** Resolves once everything queued so far is written (or dropped). */
  async drain(): Promise<void> {
    while (this.writing !== null) await this.writing;
  }

  private wake(): void {
    this.writing ??= this.write();
  }

  private async write(): Promise<void> {
    await afterIo();
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.batchSize);
        await this.writeBatch(batch).catch((error: unknown) => {
          this.counts.dropped += batch.length;
          this.logger.warn({ err: error, dropped: batch.length }, 'decision log batch not written');
        });
      }
      await this.prune();
    } finally {
      this.writing = null;
    }
  }

  private async writeBatch(batch: readonly Stored[]): Promise<void> {
    const byOrganization = new Map<number, Stored[]>();
    for (const event of batch) byOrganization.set(event.organization_id, [...(byOrganization.get(event.organization_id) ?? []), event]);
    for (const [organizationId, events] of byOrganization) {
      await withTenant(this.db, { organizationId, userId: null }, (trx) =>
        trx
          .insertInto('decision_logs')
          .values(
            events.map((event) => ({
              organization_id: organizationId,
              request_id: event.request_id,
              user_id: event.user_id,
              route_group: event.route_group,
              method: event.method,
              route: event.route,
              status: event.status,
              gate: event.gate,
              permission: event.permission ?? null,
              policy: event.policy ?? null,
              source: event.source,
              service: event.service ?? null,
              model: event.model ?? null,
              action: event.action ?? null,
              record_id: event.record_id ?? null,
            })),
          )
          .execute(),
      );
      this.counts.written += events.length;
    }
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.prunedAt < HOUR_MS) return;
    this.prunedAt = Date.now();
    const cutoff = new Date(Date.now() - this.options.retentionDays * DAY_MS);
    await withTenant(this.db, { organizationId: null, userId: null }, (trx) => sql`SELECT gatehouse_prune_decision_logs(${cutoff})`.execute(trx)).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'decision log not pruned'),
    );
  }
}
