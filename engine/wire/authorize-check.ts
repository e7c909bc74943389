import type { ConditionNode } from '../conditions/condition-tree.js';
import type { RefusalReason } from './refusal-reason.js';

/**
 * The gates an authorize check can be refused at: the check's own model, action or request
 * (an unknown model or action, a malformed id), then the gates of the real request.
 */
export const AUTHORIZE_GATES = ['model', 'action', 'request', 'record', 'policy', 'fields', 'include'] as const;

/** The header another service names itself with when it asks: the decision log's `service`. */
export const SERVICE_HEADER = 'X-Gatehouse-Service';

/** What another service's name (and each of its resources' names) must be, and the rule in words. */
export const SERVICE_NAME = /^[a-z][a-z0-9_-]{0,62}$/;
export const SERVICE_NAME_RULE = 'lower-case letters, digits, - and _, starting with a letter, at most 63';

export type AuthorizeGate = (typeof AUTHORIZE_GATES)[number];

/**
 * Why a check was refused, as a 403's reason says it (only what the caller may know about
 * themself), at any of the gates a check can stop at.
 */
export interface AuthorizeReason extends Omit<RefusalReason, 'gate'> {
  readonly gate: AuthorizeGate;
}

/** One question for `POST {t}/authorize`: may the caller do `action` on `model` (its record `id`)? */
export interface AuthorizeCheck {
  model: string;
  action: string;
  id?: number | string;
  fields?: { read?: string[]; write?: string[] };
  include?: string[];
}

/** The answer to one check, in the order asked. */
export interface AuthorizeResult {
  allowed: boolean;
  /** What the request itself would answer, when refused. */
  message?: string;
  reason?: AuthorizeReason;
  /**
   * Allowed, but of the fields the check asks to read (`fields.read`), these are left out of
   * what the request answers: the caller may not read them.
   */
  hidden_fields?: string[];
}

/** One plan asked of `POST {t}/authorize`: which records of `model` may the caller `action`? */
export interface AuthorizePlanRequest {
  model: string;
  action: string;
}

/**
 * Gatehouse narrows the model's records by a scope of the server's own code (`recordScope`) too,
 * which no plan can hold: the records the plan allows are only those the scope also lets through.
 */
export interface ScopedPlan {
  scoped?: true;
}

/**
 * The answer to one plan, in the order asked: every record (`always`), none (`never`, with the
 * refusal when the model or action is unknown or the listing is refused), or those the
 * condition matches (`conditional`), the caller's facts already filled in.
 */
export type AuthorizePlan = AuthorizePlanRequest &
  (({ kind: 'always' } & ScopedPlan) | { kind: 'never'; message?: string; reason?: AuthorizeReason } | ({ kind: 'conditional'; condition: ConditionNode } & ScopedPlan));
