import type { DecisionGate } from '@gatehouse/engine';

/** One refused request, as the request log and the `decision_logs` table record it. */
export interface DecisionEvent {
  readonly event: 'authz.denied';
  readonly request_id: string;
  readonly user_id: number | null;
  readonly organization_id: number | null;
  readonly route_group: string | null;
  readonly method: string;
  /** The route's path template (`/api/:organization/:model/:id`), never the path itself. */
  readonly route: string;
  readonly status: number;
  readonly gate: DecisionGate;
  readonly permission?: string;
  readonly policy?: string;
}
