import { POLICY_ACTIONS, type PolicyMethod } from '../wire/standard-actions.js';

const METHOD_BY_ACTION = new Map<string, PolicyMethod>(
  Object.entries(POLICY_ACTIONS).map(([method, action]) => [action, method as PolicyMethod]),
);

/** The policy method guarding a standard action; `undefined` for a custom action. */
export function policyMethodFor(action: string): PolicyMethod | undefined {
  return METHOD_BY_ACTION.get(action);
}
