import { FALSE, TRUE, isContextRef, type ConditionNode, type ContextKey, type Operand, type Scalar } from './condition-tree.js';

/** The caller's facts, by context key; null where the caller has none (a guest has no `user.id`). */
export type ConditionContext = Readonly<Record<ContextKey, Scalar | null>>;

export const NO_CONTEXT: ConditionContext = { 'user.id': null, 'organization.id': null, 'organization.slug': null, route_group: null };

/** Whether a tree names any of the caller's facts, so its resolution differs between callers. */
export function readsContext(node: ConditionNode): boolean {
  switch (node.op) {
    case 'and':
    case 'or':
      return node.conditions.some(readsContext);
    case 'not':
    case 'some':
    case 'none':
    case 'every':
      return readsContext(node.condition);
    case 'in':
    case 'nin':
      return node.values.some(isContextRef);
    case 'true':
    case 'false':
    case 'null':
    case 'not_null':
      return false;
    default:
      return isContextRef(node.value);
  }
}

/**
 * The tree with the caller's facts filled in and its constants folded. A test against a fact the
 * caller lacks is false (a guest owns nothing): `in` holds by its other values only, and `nin`,
 * which needs the attribute unequal to each (as `ne` does), not at all. `in` over no values is
 * false, `nin` over none true.
 */
export function resolveCondition(node: ConditionNode, context: ConditionContext): ConditionNode {
  if (node.op === 'and' || node.op === 'or') return combine(node.op, node.conditions.map((part) => resolveCondition(part, context)));
  if (node.op === 'not') return negate(resolveCondition(node.condition, context));
  if ('relation' in node) return { op: node.op, relation: node.relation, condition: resolveCondition(node.condition, context) };
  if ('values' in node) {
    const resolved = node.values.map((value) => valueOf(value, context));
    if (node.op === 'nin' && resolved.includes(null)) return FALSE;
    const values = resolved.filter((value): value is Scalar => value !== null);
    if (values.length === 0) return node.op === 'in' ? FALSE : TRUE;
    return { op: node.op, attribute: node.attribute, values };
  }
  if (!('value' in node)) return node;
  const value = valueOf(node.value, context);
  return value === null ? FALSE : { op: node.op, attribute: node.attribute, value };
}

const valueOf = (value: Operand, context: ConditionContext): Scalar | null => (isContextRef(value) ? context[value.context] : value);

/** `and`/`or` of resolved parts, without the constants that decide nothing and collapsing to one that decides all. */
export function combine(op: 'and' | 'or', parts: readonly ConditionNode[]): ConditionNode {
  const [absorbing, neutral] = op === 'and' ? ['false', 'true'] : ['true', 'false'];
  if (parts.some((part) => part.op === absorbing)) return op === 'and' ? FALSE : TRUE;
  const kept = parts.filter((part) => part.op !== neutral);
  if (kept.length === 0) return op === 'and' ? TRUE : FALSE;
  return kept.length === 1 ? kept[0]! : { op, conditions: kept };
}

export function negate(node: ConditionNode): ConditionNode {
  if (node.op === 'true') return FALSE;
  if (node.op === 'false') return TRUE;
  return { op: 'not', condition: node };
}
