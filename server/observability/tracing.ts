import { trace, type Tracer } from '@opentelemetry/api';

export const TRACER_NAME = 'gatehouse';

/** Gatehouse's tracer, from whichever OpenTelemetry SDK the process registered (a no-op without one). */
export const gatehouseTracer = (): Tracer => trace.getTracer(TRACER_NAME);
