import { resolveConfig, type ApiOptions } from '../../../client/config/api-config.js';
import { configureApi } from '../../../client/config/runtime.js';

type AnewOptions = ApiOptions & Required<Pick<ApiOptions, 'baseURL' | 'storage' | 'onUnauthorized'>>;

/**
 * Configures the client for a page of its own: configureApi keeps what an earlier test set unless
 * it is named, so this names every option, the defaults under what the test gives.
 */
export function configureAnew(options: AnewOptions): void {
  configureApi({ ...resolveConfig({}, options.onUnauthorized), ...options });
}
