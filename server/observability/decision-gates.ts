/**
 * The gates of a request's authorization, in the documented order of checks: the session, the
 * route group membership, the organization, the record gate, the action policy, the write fields,
 * the includes, and the service's own administration rules (members, roles, invitations).
 */
export const DECISION_GATES = ['authentication', 'route_group', 'organization', 'record', 'policy', 'fields', 'include', 'administration'] as const;

export type DecisionGate = (typeof DECISION_GATES)[number];

export const isDecisionGate = (value: unknown): value is DecisionGate => (DECISION_GATES as readonly unknown[]).includes(value);
