import type Router from '@koa/router';
import type { PolicyRegistry } from '@gatehouse/engine';
import type { GatehouseState } from '../http/state.js';
import type { RouteGroup } from './route-group.js';
import type { ModelDefinition } from './define-model.js';

/**
 * Builds the data routes (`/{model}`, `/{model}/{id}`, ...) of one route group, or none. The
 * server mounts them under each of the group's data bases behind the group's request context
 * (authentication, membership, organization, tenant transaction, permissions).
 */
export type DataRoutesFactory = (group: RouteGroup) => Router<GatehouseState> | undefined;

/** The application's models, served as data routes in every route group that lists them. */
export interface DataConfig {
  /** Registrations made with `defineModel`. */
  models: readonly ModelDefinition[];
  /**
   * Policy classes by name. A model finds its own by convention (`posts` → `PostPolicy`) or by the
   * class's `resourceSlug`; a model without one gets the bare `ResourcePolicy`.
   */
  policies?: PolicyRegistry;
}
