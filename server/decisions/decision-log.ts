import type { Logger } from 'pino';
import type { DecisionEvent } from './decision-event.js';
import type { DecisionStore } from './decision-store.js';
import { unredactedLines } from '../observability/unredacted-lines.js';

/**
 * Where refused requests go: one structured line in the request log each, and, with
 * `decisionLog.store: 'database'`, the tenant's `decision_logs` table.
 */
export class DecisionLog {
  // Every field of an event is typed, and none is a secret.
  private readonly lines: Logger;

  constructor(
    logger: Logger,
    readonly store: DecisionStore | null,
  ) {
    this.lines = unredactedLines(logger);
  }

  record(event: DecisionEvent): void {
    this.lines.info(event, event.event);
    this.store?.add(event);
  }
}
