import type { DecisionGate } from '@gatehouse/engine';

/** Where a refusal comes from: a request this service refused, or a check another service asked (`POST {t}/authorize`). */
export const DECISION_SOURCES = ['request', 'authorize'] as const;
export type DecisionSource = (typeof DECISION_SOURCES)[number];

/** What a refused data request or check was about: enough to explain it again. */
export interface DecisionTarget {
  readonly model: string;
  /** The standard action (`update` for a PATCH too), or the data route's own operation (`audit`). */
  readonly action: string;
  /** The record of a record action, as the path (or the check) named it. */
  readonly record_id?: string;
}

/** A record id as a path segment carries it; anything else is not kept. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The record id to keep of a path segment or a check's id, if it looks like one. */
export const keptRecordId = (id: string | number | undefined): { record_id?: string } =>
  id !== undefined && RECORD_ID.test(String(id)) ? { record_id: String(id) } : {};

/** One refused request, as the request log and the `decision_logs` table record it. */
export interface DecisionEvent extends Partial<DecisionTarget> {
  readonly event: 'authz.denied';
  readonly source: DecisionSource;
  /** The service that asked, for a refusal of `POST {t}/authorize` that named itself. */
  readonly service?: string;
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
