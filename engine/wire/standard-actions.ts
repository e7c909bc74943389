/** The standard mapping of policy methods to the actions of `{slug}.{action}`. */
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
