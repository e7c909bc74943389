import type { Logger } from 'pino';
import type { DecisionEvent } from './decision-event.js';
import type { DecisionStore } from './decision-store.js';

/**
 * Where refused requests go: one structured line in the request log each, and, with
 * `decisionLog.store: 'database'`, the tenant's `decision_logs` table.
 */
export class DecisionLog {
  constructor(
    private readonly logger: Logger,
    readonly store: DecisionStore | null,
  ) {}

  record(event: DecisionEvent): void {
    this.logger.info(event, event.event);
    this.store?.add(event);
  }
}
