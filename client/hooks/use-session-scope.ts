import { useClientScope } from '../react/gatehouse-context.js';
import { useRuntime } from '../react/use-runtime.js';
import { useStoredValue } from '../react/use-stored-value.js';
import { activeRouteGroup } from '../session/route-group.js';
import type { UrlScope } from '../urls/data-url.js';

// The session is the configured one (the provider reads the same), so these two need no provider.

/** The persisted organization slug; null when none is selected. Works outside AuthProvider too. */
export function useOrganization(): string | null {
  return useStoredValue(useRuntime().session, 'organization_slug');
}

/** The persisted route group of the session; null when none. Works outside AuthProvider too. */
export function useRouteGroup(): string | null {
  return useStoredValue(useRuntime().session, 'route_group');
}

/** Everything URL building depends on, re-rendering the caller when any of it changes. */
export function useUrlScope(): UrlScope {
  const { runtime, tenancy, configuredGroup } = useClientScope();
  const organization = useOrganization();
  const storedGroup = useRouteGroup();
  return {
    tenancy,
    routeGroup: activeRouteGroup(storedGroup, configuredGroup),
    routeGroupInDataPath: runtime.config.routeGroupInDataPath,
    organization,
  };
}
