import { allowedListPlan, ALWAYS, recordActionPlan, type AccessPlan, type AuthorizePlan, type AuthorizePlanRequest } from '@gatehouse/engine';
import { checkAction, isRecordAction, isStandardAction, type ServedBy } from './check-action.js';
import type { DataActionContext } from './data-action-context.js';
import { refusalOf } from './refusal-reason.js';

/**
 * The plan of `POST {t}/authorize` for "which records of `model` may the caller `action`": the
 * caller's compiled plan, the very one the server's SQL reads through. A record action's request
 * reads its record through `show` first (a 404 outside it), so its plan is both. A listing (and
 * store) is first put through the gates of its route: one they refuse is `never`, with their
 * refusal; one they allow reads every record its plan's condition does not narrow.
 */
export async function authorizePlan(context: DataActionContext, asked: AuthorizePlanRequest, servedBy: ServedBy): Promise<AuthorizePlan> {
  const { model: slug, action } = asked;
  try {
    context.model(slug);
  } catch (error) {
    return { ...asked, kind: 'never', ...refusalOf(error, () => ({ gate: 'model' })) };
  }
  if (!isStandardAction(action)) return { ...asked, kind: 'never', message: `Unknown action: ${action}.`, reason: { gate: 'action' } };
  const plan = context.plan(slug, action);
  if (isRecordAction(action)) return scoped(context, asked, action === 'show' ? plan : recordActionPlan(context.plan(slug, 'show'), plan));
  const listing = await checkAction(context, asked, servedBy);
  if (!listing.allowed) return { ...asked, kind: 'never', message: listing.message, reason: listing.reason };
  // A record to be created has nothing to narrow.
  return action === 'store' ? { ...asked, ...ALWAYS } : scoped(context, asked, allowedListPlan(plan));
}

/** The plan as answered, marked `scoped` when the model's `recordScope` narrows the records it allows further. */
function scoped(context: DataActionContext, asked: AuthorizePlanRequest, plan: AccessPlan): AuthorizePlan {
  return { ...asked, ...plan, ...(plan.kind !== 'never' && context.model(asked.model).recordScope ? { scoped: true } : {}) };
}
