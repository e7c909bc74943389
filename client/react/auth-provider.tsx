import { AbilityProvider } from '@casl/react';
import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { buildAbility } from '../ability/gatehouse-ability.js';
import type { Tenancy } from '../config/api-config.js';
import { requestLogin, requestLogout } from '../session/auth-requests.js';
import { routeGroupForCall } from '../session/route-group.js';
import { GatehouseContext, type AuthState, type GatehouseContextValue } from './gatehouse-context.js';
import { useCacheFollowingSession } from './use-cache-following-session.js';
import { useRuntime } from './use-runtime.js';
import { useStoredValue } from './use-stored-value.js';

export interface AuthProviderProps {
  /** Overrides configureApi's routeGroup for everything below; null means no group. */
  routeGroup?: string | null;
  /** Overrides configureApi's tenancy for everything below. */
  tenancy?: Tenancy;
  /** Defaults to the surrounding QueryClientProvider's client, else one of its own. */
  queryClient?: QueryClient;
  children?: ReactNode;
}

/** `user` is a common key name: another script on the origin may have stored something else there. */
function parseUser(json: string | null): unknown {
  try {
    return json === null ? null : JSON.parse(json);
  } catch {
    return null;
  }
}

export function AuthProvider({ routeGroup, tenancy, queryClient, children }: AuthProviderProps) {
  const surrounding = useContext(QueryClientContext);
  const [client] = useState(() => queryClient ?? surrounding ?? new QueryClient());
  // One ability per provider for @casl/react's Can and useAbility; useAbility loads the rules.
  const [ability] = useState(() => buildAbility());
  const runtime = useRuntime();
  const { session } = runtime;
  const configuredGroup = routeGroup === undefined ? runtime.config.routeGroup : routeGroup || null;

  const token = useStoredValue(session, 'token');
  const userJson = useStoredValue(session, 'user');
  const isReady = useSyncExternalStore(session.subscribe, session.isReady, session.isReady);
  const user = useMemo(() => parseUser(userJson), [userJson]);
  useCacheFollowingSession(client);

  // The session a login starts reads the cached queries again (useCacheFollowingSession).
  const login = useCallback<AuthState['login']>(
    (email, password, option) => requestLogin(runtime, routeGroupForCall(session, configuredGroup, option), email, password),
    [runtime, session, configuredGroup],
  );

  const logout = useCallback<AuthState['logout']>(
    (option) => requestLogout(runtime, routeGroupForCall(session, configuredGroup, option)),
    [runtime, session, configuredGroup],
  );

  const auth = useMemo<AuthState>(
    () => ({
      token,
      user,
      isAuthenticated: token !== null,
      isReady,
      login,
      logout,
      setOrganization: (slug) => session.write({ organization_slug: slug || null }),
      setRouteGroup: (group) => session.write({ route_group: group || null }),
    }),
    [token, user, isReady, login, logout, session],
  );

  const value = useMemo<GatehouseContextValue>(
    () => ({ runtime, tenancy: tenancy ?? runtime.config.tenancy, configuredGroup, auth }),
    [runtime, tenancy, configuredGroup, auth],
  );

  return (
    <QueryClientProvider client={client}>
      <GatehouseContext.Provider value={value}>
        <AbilityProvider value={ability}>{children}</AbilityProvider>
      </GatehouseContext.Provider>
    </QueryClientProvider>
  );
}
