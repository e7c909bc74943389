import type { DecisionGate } from '@gatehouse/engine/wire';
import { fetchIndexPage } from '../http/index-page.js';
import { presentParams } from '../urls/present-params.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

/** One stored refusal of the organization, as `GET {t}/decisions` lists them. */
export interface DecisionLogEntry {
  id: number;
  request_id: string;
  user_id: number | null;
  route_group: string | null;
  method: string;
  /** The route's path template, never the path itself. */
  route: string;
  status: number;
  gate: DecisionGate;
  permission: string | null;
  policy: string | null;
  /** `request`: a request the server refused; `authorize`: a check another service asked. */
  source: 'request' | 'authorize';
  /** The service that asked, for an `authorize` refusal that named itself. */
  service: string | null;
  /** The model (or registered resource), action and record of a data request or check. */
  model: string | null;
  action: string | null;
  record_id: string | null;
  created_at: string;
}

export interface DecisionsQuery {
  page?: number;
  perPage?: number;
  userId?: number;
  gate?: DecisionGate;
  permission?: string;
  source?: 'request' | 'authorize';
  model?: string;
  /** An ISO date or time: only refusals from then on. */
  since?: string;
}

function decisionParams({ page, perPage, userId, gate, permission, source, model, since }: DecisionsQuery): Record<string, string> {
  return presentParams({ page, per_page: perPage, user_id: userId, gate, permission, source, model, since });
}

/** The organization's refused requests (`decisions.index`; stored with `decisionLog.store: 'database'`), newest first, one page as `{data, meta}`. */
export function useDecisions(query: DecisionsQuery = {}) {
  const params = decisionParams(query);
  return useScopedQuery(useTenantScope(), 'decisions', [params], (http, base) => fetchIndexPage<DecisionLogEntry>(http, `${base}/decisions`, params));
}
