/**
 * The gates that answer 403, as `reason.gate` names them: route group membership, the action
 * policy, the write fields, the includes, and the service's own administration rules (members,
 * roles, invitations).
 */
export const REFUSAL_GATES = ['route_group', 'policy', 'fields', 'include', 'administration'] as const;

export type RefusalGate = (typeof REFUSAL_GATES)[number];

/**
 * Why a 403 refused, beside its `message`: only what the caller may know about themself, the
 * permission they lack, the policy method that refused, their refused fields or include path.
 */
export interface RefusalReason {
  readonly gate: RefusalGate;
  readonly permission?: string;
  /** `PostPolicy.create`: the policy method whose rule refused. */
  readonly policy?: string;
  readonly fields?: readonly string[];
  readonly include?: string;
  /**
   * `true` when the caller lacks `permission` because a per-user deny takes it away, not for want
   * of a grant: their role or a grant of their own gives it. Which deny entry did it is not said.
   */
  readonly denied?: true;
  /** The conditioned permissions (`posts.update:own`, `!posts.update:published`) a record it may see fell outside of. */
  readonly conditions?: readonly string[];
}

/**
 * Every gate a request passes, in the documented order of checks; the first that refuses decides
 * the answer: 401 (authentication), 403 (route group, policy, fields, include, administration),
 * 404 (organization, membership, record: a non-member and a hidden record look like nothing).
 */
export const DECISION_GATES = ['authentication', 'route_group', 'organization', 'membership', 'record', 'policy', 'fields', 'include', 'administration'] as const;

export type DecisionGate = (typeof DECISION_GATES)[number];
