import type { PolicyRegistry } from '@gatehouse/engine';
import type { ModelDefinition } from './define-model.js';

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
