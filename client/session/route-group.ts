import type { SessionStore } from './session-store.js';

/** Per-call choice of route group: a string picks that group, null the plain `/auth/*` set. */
export interface RouteGroupOption {
  routeGroup?: string | null;
}

/** The group of the current session when one was resolved, else the configured one. */
export function activeRouteGroup(storedGroup: string | null, configuredGroup: string | null): string | null {
  return storedGroup ?? configuredGroup;
}

/** The group an auth call goes to: its own choice, else the active group at the time of the call. */
export function routeGroupForCall(
  session: SessionStore,
  configuredGroup: string | null,
  option: RouteGroupOption | undefined,
): string | null {
  if (option?.routeGroup !== undefined) return option.routeGroup || null;
  return activeRouteGroup(session.get('route_group'), configuredGroup);
}
