import type { RefusalReason } from '@gatehouse/engine/wire';
import { isAxiosError } from 'axios';

/** A 403's `reason` (`{gate, permission?, policy?, fields?, include?, denied?, conditions?}`); null for any other error or a server that sends none. */
export function refusalOf(error: unknown): RefusalReason | null {
  if (!isAxiosError<{ reason?: RefusalReason }>(error) || error.response?.status !== 403) return null;
  const reason = error.response.data?.reason;
  return reason && typeof reason.gate === 'string' ? reason : null;
}

/**
 * A refusal in a sentence for the person refused: `You lack posts.destroy`, `posts.forceDelete
 * was denied to you` (a per-user deny took it away), `posts.update does not reach this record
 * (posts.update:own)` (a record outside the caller's record conditions), `Refused by
 * PostPolicy.create`, `You may not set internal_notes (PostPolicy.permittedAttributesForCreate)`.
 */
export function refusalText(reason: RefusalReason): string {
  if (reason.gate === 'route_group') return 'You are not a member of this route group';
  if (reason.gate === 'fields') return `You may not set ${reason.fields?.join(', ') ?? 'these fields'}${reason.policy ? ` (${reason.policy})` : ''}`;
  if (reason.gate === 'include') return `You may not include ${reason.include ?? 'that'}${reason.permission ? `: you lack ${reason.permission}` : ''}`;
  if (reason.policy) return `Refused by ${reason.policy}`;
  if (reason.conditions?.length) return `${reason.permission ?? 'The action'} does not reach this record (${reason.conditions.join(', ')})`;
  if (reason.permission === undefined) return 'Refused by the organization’s rules';
  return reason.denied ? `${reason.permission} was denied to you` : `You lack ${reason.permission}`;
}
