import { useProvidedAuth, type AuthState } from '../react/gatehouse-context.js';

/** The session: token, user, login/logout and the persisted organization and route group setters. */
export function useAuth<User = unknown>(): AuthState<User> {
  return useProvidedAuth() as AuthState<User>;
}
