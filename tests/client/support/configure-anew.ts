import type { ApiOptions } from '../../../client/config/api-config.js';
import { configureApi } from '../../../client/config/runtime.js';

/** Every option back to its default: an option added to ApiOptions must be named here, or this does not compile. */
const DEFAULTS = { baseURL: null, onUnauthorized: null, onForbidden: null, routeGroup: null, tenancy: null, routeGroupInDataPath: null } satisfies Record<Exclude<keyof ApiOptions, 'storage'>, null>;

/**
 * Configures the client for a page of its own: configureApi keeps what an earlier test set unless
 * it is named, so this puts every option back to its default under what the test gives.
 */
export function configureAnew(options: ApiOptions): void {
  configureApi({ ...DEFAULTS, ...options });
}
