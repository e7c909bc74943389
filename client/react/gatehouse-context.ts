import { createContext, useContext } from 'react';
import type { Tenancy } from '../config/api-config.js';
import type { Runtime } from '../config/runtime.js';
import type { LoginResult } from '../session/auth-requests.js';
import type { RouteGroupOption } from '../session/route-group.js';
import { useRuntime } from './use-runtime.js';

export interface AuthState<User = unknown> {
  token: string | null;
  user: User | null;
  isAuthenticated: boolean;
  /** False while React Native's AsyncStorage is still being read; always true on web. */
  isReady: boolean;
  login(email: string, password: string, options?: RouteGroupOption): Promise<LoginResult<User>>;
  logout(options?: RouteGroupOption): Promise<void>;
  setOrganization(slug: string | null): Promise<void>;
  setRouteGroup(group: string | null): Promise<void>;
}

/** What requests and their URLs are built from. */
export interface ClientScope {
  runtime: Runtime;
  tenancy: Tenancy;
  /** The provider's routeGroup prop, else configureApi's. */
  configuredGroup: string | null;
}

export interface GatehouseContextValue extends ClientScope {
  auth: AuthState;
}

export const GatehouseContext = createContext<GatehouseContextValue | null>(null);

/**
 * The nearest AuthProvider's scope, else configureApi's alone: the data hooks also work in an app
 * that gives them only a QueryClientProvider, as rhino-react's do.
 */
export function useClientScope(): ClientScope {
  const provided = useContext(GatehouseContext);
  const runtime = useRuntime();
  return provided ?? { runtime, tenancy: runtime.config.tenancy, configuredGroup: runtime.config.routeGroup };
}

/** The session state only AuthProvider holds: it re-renders every reader when the session changes. */
export function useProvidedAuth(): AuthState {
  const value = useContext(GatehouseContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>.');
  return value.auth;
}
