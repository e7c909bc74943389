import { createContext, useContext } from 'react';
import type { Tenancy } from '../config/api-config.js';
import type { Runtime } from '../config/runtime.js';
import type { LoginResult } from '../session/auth-requests.js';
import type { RouteGroupOption } from '../session/route-group.js';

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

export interface GatehouseContextValue {
  runtime: Runtime;
  tenancy: Tenancy;
  /** The provider's routeGroup prop, else configureApi's. */
  configuredGroup: string | null;
  auth: AuthState;
}

export const GatehouseContext = createContext<GatehouseContextValue | null>(null);

export function useGatehouse(): GatehouseContextValue {
  const value = useContext(GatehouseContext);
  if (!value) throw new Error('Gatehouse hooks must be used inside <AuthProvider>.');
  return value;
}
