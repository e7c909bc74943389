import { mapOperands, type ConditionNode } from '@gatehouse/engine';
import type { BoundValues } from '../db/statements/bound-values.js';

/**
 * A resolved condition with its values bound in a statement's values: its JSON (placeholders
 * where the values were) keys the statement, so callers whose conditions differ only in their
 * values (`author_id = 7`, `= 8`) share its SQL.
 */
export const bindCondition = (node: ConditionNode, bound: BoundValues): ConditionNode => mapOperands(node, (value) => bound.bind(value));
