import { DECISION_GATES, GATE_STATUS, SERVICE_HEADER, type DecisionGate } from '@gatehouse/engine';
import type { ActionCheck, CheckResult } from '../data/check-action.js';
import { BadRequestError } from '../errors/bad-request-error.js';
import type { DataState, GatehouseContext } from '../http/state.js';
import type { GatehouseMetrics } from '../observability/metrics.js';
import { serviceNameSchema } from '../permissions/service-resources.js';
import { keptRecordId } from './decision-event.js';
import type { DecisionLog } from './decision-log.js';
import { routeTemplate } from './route-template.js';

/** The asking service's name, if it sent one; a malformed one is a 400. */
export function askingService(ctx: GatehouseContext): string | undefined {
  const sent = ctx.get(SERVICE_HEADER);
  if (sent === '') return undefined;
  const parsed = serviceNameSchema.safeParse(sent);
  if (!parsed.success) throw new BadRequestError(`Invalid ${SERVICE_HEADER} header: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

const isDecisionGate = (gate: string): gate is DecisionGate => (DECISION_GATES as readonly string[]).includes(gate);

/**
 * Every refused check of a `POST {t}/authorize` call, recorded and counted like a refused
 * request (`source: 'authorize'`, with the asking service): the refusals another service acts
 * on are seen where the service's own are. A malformed check (an unknown model or action) is
 * the caller's mistake, not a decision, and stays out.
 */
export function recordAuthorizeRefusals(
  ctx: GatehouseContext<DataState>,
  { decisions, metrics, service }: { decisions: DecisionLog; metrics: GatehouseMetrics | null; service: string | undefined },
  checks: readonly ActionCheck[],
  results: readonly CheckResult[],
): void {
  results.forEach((result, index) => {
    if (result.allowed) return;
    const { gate, permission, policy } = result.reason;
    if (!isDecisionGate(gate)) return;
    const check = checks[index]!;
    metrics?.decided(gate, false);
    decisions.record({
      event: 'authz.denied',
      source: 'authorize',
      ...(service === undefined ? {} : { service }),
      request_id: ctx.state.requestId,
      user_id: ctx.state.auth?.user.id ?? null,
      organization_id: ctx.state.organization?.id ?? null,
      route_group: ctx.state.routeGroup.name,
      method: ctx.method,
      route: routeTemplate(ctx),
      status: GATE_STATUS[gate],
      gate,
      model: check.model,
      action: check.action,
      ...keptRecordId(check.id),
      ...(permission === undefined ? {} : { permission }),
      ...(policy === undefined ? {} : { policy }),
    });
  });
}
