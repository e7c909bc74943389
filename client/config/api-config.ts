import type { AxiosError } from 'axios';
import type { KeyValueStorage } from '../storage/key-value-storage.js';

export type Tenancy = 'path' | 'subdomain' | 'none';

/**
 * What configureApi takes; every option is optional, and one left out keeps its current value.
 * `null` puts an option back to its default.
 */
export interface ApiOptions {
  /** Base of every request; default `/api`. */
  baseURL?: string | null;
  /** Runs after a 401 on any request but login and logout; default the platform's (the web: go to `/`). */
  onUnauthorized?: (() => void) | null;
  /** Runs on every 403; the session is kept. Default nothing. */
  onForbidden?: ((error: AxiosError<{ message?: string }>) => void) | null;
  /** Group for prefix-based route groups (`/{group}/auth/*`); null means none and clears one configured before. */
  routeGroup?: string | null;
  tenancy?: Tenancy | null;
  routeGroupInDataPath?: boolean | null;
  /**
   * Where the session persists; defaults to localStorage on web and is required on React Native.
   * Giving one starts a new session on it, which ends the current one unless it holds the same
   * token (a provider forgets the ended one's cached queries); a call without it keeps the
   * current session.
   */
  storage?: KeyValueStorage;
}

export interface ApiConfig {
  baseURL: string;
  onUnauthorized: () => void;
  onForbidden: (error: AxiosError<{ message?: string }>) => void;
  routeGroup: string | null;
  tenancy: Tenancy;
  routeGroupInDataPath: boolean;
}

export function resolveConfig(options: ApiOptions, defaultOnUnauthorized: () => void): ApiConfig {
  return {
    baseURL: options.baseURL ?? '/api',
    onUnauthorized: options.onUnauthorized ?? defaultOnUnauthorized,
    onForbidden: options.onForbidden ?? (() => undefined),
    routeGroup: options.routeGroup || null,
    tenancy: options.tenancy ?? 'path',
    routeGroupInDataPath: options.routeGroupInDataPath ?? false,
  };
}
