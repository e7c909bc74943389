import type { DecisionLogEntry, ExplainRequest } from '@gatehouse/client';
import { STANDARD_ACTIONS, type StandardAction } from '@gatehouse/engine/wire';

/** The actions about one record: explaining one needs the record's id. */
export const RECORD_ACTIONS: readonly StandardAction[] = ['show', 'update', 'destroy', 'restore', 'forceDelete'];

const isStandard = (action: string | undefined): action is StandardAction => (STANDARD_ACTIONS as readonly string[]).includes(action ?? '');

/**
 * The request `POST {t}/explain` can replay for a logged refusal, or, when the row holds too
 * little, why not in plain words. `otherServices`: the registered resources of other services,
 * whose checks Explain decides as `authorize` does, by the permission alone.
 */
export function explainableDecision(entry: DecisionLogEntry, otherServices: ReadonlySet<string>): { request: ExplainRequest } | { why: string } {
  if (entry.user_id === null) return { why: 'Nobody was signed in: there is no member to explain it for.' };
  const { model, action } = entry;
  // Before the log kept models, and for routes outside the data routes (invitations, members).
  if (model === null || action === null) return { why: `No model was recorded for ${entry.method} ${entry.route}: Explain covers requests for a model's data.` };
  if (otherServices.has(model)) return { request: { model, action, userId: entry.user_id } };
  if (!isStandard(action)) return { why: `${action} is not one of the standard actions Explain covers.` };
  const needsRecord = RECORD_ACTIONS.includes(action);
  if (needsRecord && entry.record_id === null) return { why: 'The log kept no record id for this refusal.' };
  return { request: { model, action, userId: entry.user_id, ...(needsRecord ? { id: entry.record_id! } : {}) } };
}
