import type { StatementDone, StatementObserver } from '../db/connection/statement-client.js';
import type { GatehouseMetrics } from './metrics.js';
import { statementStage } from './statement-stage.js';

/**
 * Times each connection's transactions into `gatehouse_tenant_transaction_duration_seconds`, from
 * the opening being sent to its COMMIT or ROLLBACK being answered: how long a request holds a
 * pooled connection.
 */
export function transactionTimer(metrics: GatehouseMetrics): StatementObserver {
  const opened = new WeakMap<object, bigint>();
  return {
    sent(connection, text): StatementDone | undefined {
      const stage = statementStage(text);
      if (stage === 'opening') opened.set(connection, process.hrtime.bigint());
      if (stage !== 'commit' && stage !== 'rollback') return undefined;
      const started = opened.get(connection);
      if (started === undefined) return undefined;
      opened.delete(connection);
      return () => metrics.transactionDuration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    },
  };
}
