import type { DecisionGate, FieldsExplanation, IncludesExplanation, PermissionExplanation, PolicyExplanation } from '@gatehouse/engine';
import type { RecordState } from './record-gate.js';

/** One gate of the decision, in the documented order of checks. */
export interface Check {
  readonly gate: DecisionGate;
  readonly passed: boolean;
  /** The check in words: `lacks posts.destroy`, `not in this organization`. */
  readonly detail: string;
  readonly record?: RecordState;
  readonly policy?: PolicyExplanation;
  readonly permission?: PermissionExplanation;
  readonly fields?: FieldsExplanation;
  readonly include?: IncludesExplanation;
}

/** `POST {t}/explain`'s answer: the checks up to the first that refused, and what the request would answer. */
export interface Decision {
  readonly allowed: boolean;
  /** The first gate that refused; null when every one passed. */
  readonly gate: DecisionGate | null;
  /** The status the request itself answers with (its success status when allowed). */
  readonly status: number;
  readonly user: { readonly id: number; readonly name: string; readonly email: string; readonly role: string };
  readonly request: { readonly method: string; readonly route: string; readonly model: string; readonly action: string; readonly id?: number; readonly fields?: string[]; readonly include?: string[] };
  readonly checks: Check[];
}

/** The status a refusal at each gate answers with: a non-member and a hidden record look like nothing. */
export const GATE_STATUS: Readonly<Record<DecisionGate, number>> = {
  authentication: 401,
  route_group: 403,
  organization: 404,
  membership: 404,
  record: 404,
  policy: 403,
  fields: 403,
  include: 403,
  administration: 403,
};
