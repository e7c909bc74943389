import { context, SpanStatusCode } from '@opentelemetry/api';
import type { Observability } from './observability.js';

/**
 * Runs a policy's check (which throws to refuse) as the policy evaluation: a span beneath the
 * request's when tracing, and a decision of the policy gate when counting. A refusal is counted
 * by the error handler, like every refusal, so it is not counted here.
 */
export function evaluatePolicy(observability: Observability, subject: { model: string; method: string }, check: () => void): void {
  const span = observability.tracer?.startSpan('policy', { attributes: { 'gatehouse.model': subject.model, 'gatehouse.policy.method': subject.method } }, context.active());
  try {
    check();
    span?.setAttribute('gatehouse.decision', 'allowed');
    observability.metrics?.decided('policy', true);
  } catch (error) {
    span?.setAttribute('gatehouse.decision', 'denied');
    span?.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span?.end();
  }
}
