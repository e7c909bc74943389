/** The contract's mapping of policy methods to the actions of `{slug}.{action}`. */
export const POLICY_ACTIONS = {
  viewAny: 'index',
  view: 'show',
  create: 'store',
  update: 'update',
  delete: 'destroy',
  viewTrashed: 'trashed',
  restore: 'restore',
  forceDelete: 'forceDelete',
} as const;

export type PolicyMethod = keyof typeof POLICY_ACTIONS;

export type StandardAction = (typeof POLICY_ACTIONS)[PolicyMethod];

/** The actions every resource has; any other action name is a custom action. */
export const STANDARD_ACTIONS: readonly StandardAction[] = Object.values(POLICY_ACTIONS);

const METHOD_BY_ACTION = new Map<string, PolicyMethod>(
  Object.entries(POLICY_ACTIONS).map(([method, action]) => [action, method as PolicyMethod]),
);

/** The policy method guarding a standard action; `undefined` for a custom action. */
export function policyMethodFor(action: string): PolicyMethod | undefined {
  return METHOD_BY_ACTION.get(action);
}
