import { compileAbility, type PolicyContext } from '@gatehouse/engine';

export const ACME = { id: 1, slug: 'acme' };
export const EDITOR = { id: 7, name: 'Edith' };

/** A request context for EDITOR in ACME holding `permissions`, with any field overridden. */
export function contextWith(permissions: string[], overrides: Partial<PolicyContext> = {}): PolicyContext {
  return {
    user: EDITOR,
    ability: compileAbility(permissions),
    role: 'editor',
    organization: ACME,
    routeGroup: 'tenant',
    ...overrides,
  };
}

/** The error `action` throws; fails the test when it throws nothing. */
export function errorThrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, but nothing was thrown');
}
