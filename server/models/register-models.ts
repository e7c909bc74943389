import { ConfigError } from '../errors/config-error.js';
import type { RouteGroup } from './route-group.js';
import type { DataConfig } from './data-config.js';
import { createModelRegistry, type ModelRegistry } from './model-registry.js';

/**
 * Checks at start-up what would otherwise fail per request: every model a group lists is
 * registered, and tenant-owned models are served only where a request has an organization.
 */
export function registerModels(data: DataConfig, groups: readonly RouteGroup[]): ModelRegistry {
  const registry = createModelRegistry(data.models, data.policies);
  for (const group of groups) {
    for (const slug of group.models) {
      if (!registry.has(slug)) throw new ConfigError(`Route group ${group.name} lists model ${slug}, which is not registered.`);
      if (group.tenancy === 'none' && registry.get(slug).tenantOwned) {
        throw new ConfigError(`Route group ${group.name} has no tenancy, so it cannot serve the tenant-owned model ${slug}.`);
      }
    }
  }
  return registry;
}
