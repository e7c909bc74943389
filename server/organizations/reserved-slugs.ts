import type { RouteGroup } from '../models/route-group.js';

// Path segments the service itself answers under the base path; an organization named like one
// would be shadowed by it.
const SERVICE_SEGMENTS = ['auth', 'health', 'ready', 'invitations', 'organizations', 'well-known', 'api', 'docs'];

export function reservedSlugs(groups: readonly RouteGroup[]): ReadonlySet<string> {
  return new Set([...SERVICE_SEGMENTS, ...groups.map((group) => group.name)]);
}
