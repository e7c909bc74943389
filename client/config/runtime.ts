import type { AxiosInstance } from 'axios';
import { createHttpClient } from '../http/http-client.js';
import { createSessionStore, type SessionStore } from '../session/session-store.js';
import { resolveConfig, type ApiConfig, type ApiOptions } from './api-config.js';
import type { Platform } from './platform.js';

export interface Runtime {
  config: ApiConfig;
  session: SessionStore;
  http: AxiosInstance;
}

let platform: Platform | undefined;
let current: Runtime | undefined;

/** Called once by each entry point; everything else is shared between web and React Native. */
export function installPlatform(target: Platform): void {
  platform = target;
}

function createRuntime(options: ApiOptions): Runtime {
  if (!platform) throw new Error('Import gatehouse/client or gatehouse/client/native, not an internal module.');
  const storage = options.storage ?? platform.defaultStorage();
  const config = resolveConfig(options, platform.defaultOnUnauthorized);
  const session = createSessionStore(storage, platform.createEvents(storage));
  return { config, session, http: createHttpClient(config, session) };
}

/**
 * Replaces the whole configuration (options left out take their defaults), session included.
 * Call it at start-up, before the first render: a mounted provider would not notice the change.
 */
export function configureApi(options: ApiOptions = {}): void {
  current?.session.dispose();
  current = createRuntime(options);
}

export function getRuntime(): Runtime {
  current ??= createRuntime({});
  return current;
}

/** The configured axios instance, for endpoints without a hook; it carries the token and the 401/403 handling. */
export function getHttpClient(): AxiosInstance {
  return getRuntime().http;
}
