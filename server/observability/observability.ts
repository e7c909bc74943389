import type { Tracer } from '@opentelemetry/api';
import type { GatehouseMetrics } from './metrics.js';

/** What a server reports about itself besides its request log; each part is off unless configured. */
export interface Observability {
  /** The Prometheus metrics, when `metrics` is configured. */
  readonly metrics: GatehouseMetrics | null;
  /** Gatehouse's tracer, when `tracing` is on: spans go to the registered OpenTelemetry SDK. */
  readonly tracer: Tracer | null;
  /** Each request's stages (opening, statements) are logged at debug level. */
  readonly stageLogs: boolean;
}

export const UNOBSERVED: Observability = { metrics: null, tracer: null, stageLogs: false };
