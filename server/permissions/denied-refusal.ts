import { explainPermission, type ExplainedSources } from '@gatehouse/engine';
import type { Membership } from '../http/state.js';

interface Lacking {
  readonly permission?: string | undefined;
  readonly policy?: string | undefined;
}

/**
 * A refusal for want of a permission, marked `denied: true` when the member's role or one of
 * their grants gives it and a per-user deny takes it away. Only the caller's own lists are read
 * and no entry is named: the member learns that a deny refused them, which they could read in
 * their own permissions, and nothing else. A refusal despite the permission (a policy method's
 * own rule) or outside a membership is returned as it is.
 */
export function markDenied<R extends Lacking>(refusal: R, membership: Membership | undefined): R | (R & { denied: true }) {
  if (membership === undefined) return refusal;
  return markDeniedBy(refusal, { role: membership.rolePermissions, granted: membership.granted, denied: membership.denied });
}

/** `markDenied` for a member's permission lists, as an explained member holds them. */
export function markDeniedBy<R extends Lacking>(refusal: R, sources: ExplainedSources): R | (R & { denied: true }) {
  if (refusal.permission === undefined || refusal.policy !== undefined) return refusal;
  const { allowed, granted_by, denied_by } = explainPermission(sources, refusal.permission);
  return !allowed && granted_by.length > 0 && denied_by.length > 0 ? { ...refusal, denied: true } : refusal;
}
