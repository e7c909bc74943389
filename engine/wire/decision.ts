import type { FieldsExplanation } from '../explain/explain-fields.js';
import type { IncludesExplanation } from '../explain/explain-includes.js';
import type { PermissionExplanation } from '../explain/explain-permission.js';
import type { PolicyExplanation } from '../explain/explain-policy.js';
import type { AccessPlan } from '../conditions/access-plan.js';
import type { AuthorizeReason } from './authorize-check.js';
import { DECISION_GATES } from './refusal-reason.js';

/**
 * Where a record stands for an explained request. `not_found` is all a caller may learn of a
 * record outside their gate (their 404 says no more); the others are for holders of
 * `decisions.explain`.
 */
export type RecordState =
  | 'visible'
  | 'not_found'
  | 'missing'
  | 'not_in_organization'
  | 'hidden_by_scope'
  | 'hidden_by_row_security'
  | 'outside_condition'
  | 'trashed'
  | 'not_trashed';

/**
 * The gates of an explained decision: a request's, and for a check on another service's
 * resource, its `action` (not one the resource registers) and `request` (fields or includes,
 * which that service checks), as `authorize` refuses them.
 */
export const EXPLAIN_GATES = [...DECISION_GATES, 'action', 'request'] as const;

export type ExplainGate = (typeof EXPLAIN_GATES)[number];

/** One gate of the decision, in the documented order of checks. */
export interface DecisionCheck {
  readonly gate: ExplainGate;
  readonly passed: boolean;
  /** The check in words: `lacks posts.destroy`, `not in this organization`. */
  readonly detail: string;
  readonly record?: RecordState;
  readonly policy?: PolicyExplanation;
  readonly permission?: PermissionExplanation;
  readonly fields?: FieldsExplanation;
  readonly include?: IncludesExplanation;
  /** A read's fields the member may not read: the request answers without them. */
  readonly hidden_fields?: readonly string[];
  /** The conditioned permission that admitted the record (`posts.update:own`) or, as `!posts.update:own`, the deny that excluded it. */
  readonly condition?: string;
  /** The conditioned grants a record matched none of (`posts.update:own`): why it is excluded. */
  readonly conditions?: readonly string[];
  /** A list's access plan: which records it holds (`always`, `never`, or the compiled condition). */
  readonly plan?: AccessPlan;
}

/** `POST {t}/explain`'s answer (and `gatehouse explain --json`'s): the checks up to the first that refused, and what the request would answer. */
export interface Decision {
  readonly allowed: boolean;
  /** The first gate that refused; null when every one passed. */
  readonly gate: ExplainGate | null;
  /** The status the request itself answers with (its success status when allowed). */
  readonly status: number;
  readonly user: { readonly id: number; readonly name: string; readonly email: string; readonly role: string };
  /** The request explained; its `id` is text only for another service's resource, whose ids are that service's. */
  readonly request: { readonly method: string; readonly route: string; readonly model: string; readonly action: string; readonly id?: number | string; readonly fields?: string[]; readonly include?: string[] };
  readonly checks: DecisionCheck[];
  /** For a check on another service's resource, a refusal's `reason` as `authorize` answers it. */
  readonly reason?: AuthorizeReason;
}

/**
 * The status a refusal at each gate answers with: a non-member and a hidden record look like
 * nothing; a resource check's action or request is the caller's mistake.
 */
export const GATE_STATUS: Readonly<Record<ExplainGate, number>> = {
  authentication: 401,
  route_group: 403,
  organization: 404,
  membership: 404,
  record: 404,
  policy: 403,
  fields: 403,
  include: 403,
  administration: 403,
  action: 422,
  request: 422,
};
