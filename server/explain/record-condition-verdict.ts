import { conditionOf, conditionsOn, EXCLUSION_PREFIX, parsePermission, type ConditionCatalog, type ConditionContext, type ConditionNode, type DecisionCheck } from '@gatehouse/engine';
import type { DataActionContext } from '../data/data-action-context.js';
import { recordStatement } from '../data/find-record.js';
import { NO_NARROWING } from '../listing/build-index-query.js';
import type { TrashedMode } from '../listing/gated-query.js';
import type { ModelDefinition } from '../models/define-model.js';

/** One record of the request's organization, read through a condition the explanation chooses. */
export interface RecordProbe {
  readonly context: DataActionContext;
  readonly model: ModelDefinition;
  readonly id: number;
  readonly trashed: TrashedMode;
}

/**
 * Whether the record passes the request's record gate with `condition` in place of the caller's
 * on `action` (null: none). The same statement the request runs, so the answer is SQL's.
 */
export async function probeRecord({ context, model, id, trashed }: RecordProbe, action: string, condition: ConditionNode | null): Promise<boolean> {
  const access = condition === null || context.scope.access === undefined ? undefined : { condition: () => condition, model: context.scope.access.model };
  const statement = recordStatement(context.trx, { model, scope: { ...context.scope, access }, trashed, narrowing: NO_NARROWING, reads: 'record', action }, id);
  return (await context.trx.executeQuery(statement)).rows.length > 0;
}

export interface ConditionVerdict {
  readonly admitted: boolean;
  /** The grant that admitted the record, or the deny (`!posts.update:own`) that excluded it. */
  readonly condition?: string;
  /** The conditioned grants the record matched none of. */
  readonly conditions?: readonly string[];
}

/**
 * Which of the caller's conditioned permissions on `action` decided the record: the first grant
 * it matches, or the deny that took it away, or the grants it missed. Undefined when no condition
 * applies (a plain grant with no conditioned deny, or nothing held). Each permission is asked of
 * the database on its own, after the caller's whole plan decided.
 */
export async function conditionVerdict(probe: RecordProbe, action: string, catalog: ConditionCatalog, facts: ConditionContext): Promise<ConditionVerdict | undefined> {
  const plan = probe.context.plan(probe.model.slug, action);
  if (plan.kind !== 'conditional') return undefined;
  const admitted = await probeRecord(probe, action, plan.condition);
  const entries = conditionsOn(probe.context.permissions, probe.model.slug, action);
  const denies = entries.filter((entry) => entry.startsWith(EXCLUSION_PREFIX));
  const grants = entries.filter((entry) => !denies.includes(entry));
  const matched = async (entry: string) => probeRecord(probe, action, conditionOf(parsePermission(entry.replace(EXCLUSION_PREFIX, '')), catalog, facts, entry.startsWith(EXCLUSION_PREFIX)));
  for (const entry of admitted ? grants : denies) {
    if (await matched(entry)) return { admitted, condition: entry };
  }
  return admitted ? { admitted } : { admitted, conditions: grants };
}

/** The verdict as a check's words and keys. */
export function verdictCheck(verdict: ConditionVerdict): Pick<DecisionCheck, 'detail' | 'condition' | 'conditions'> {
  if (verdict.condition !== undefined) {
    return { detail: verdict.admitted ? `matches ${verdict.condition}` : `excluded by ${verdict.condition}`, condition: verdict.condition };
  }
  if (verdict.admitted) return { detail: 'held whole, and no conditioned deny matches' };
  return { detail: `matches none of ${verdict.conditions!.join(', ')}`, conditions: verdict.conditions! };
}
