import type { DecisionGate, RefusalReason } from '@gatehouse/engine';

/**
 * Why a request was refused, at any gate: a 403's `reason` (the caller may read it), or the gate
 * of a 401 or 404, which only the decision log records.
 */
export interface Refusal extends Omit<RefusalReason, 'gate'> {
  readonly gate: DecisionGate;
}
