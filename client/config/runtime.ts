import type { AxiosInstance } from 'axios';
import { bindHttpClient, createHttpClient } from '../http/http-client.js';
import { announceSessionChange } from '../session/session-changes.js';
import { SESSION_KEYS } from '../session/session-keys.js';
import { createSessionStore, type SessionStore } from '../session/session-store.js';
import { resolveConfig, type ApiConfig, type ApiOptions } from './api-config.js';
import type { Platform } from './platform.js';

export interface Runtime {
  config: ApiConfig;
  session: SessionStore;
  http: AxiosInstance;
}

let platform: Platform | undefined;
/** Every option given so far, a later call's over an earlier one's; the defaults fill the rest. */
let configured: ApiOptions = {};
let current: Runtime | undefined;
let unbindHttp: (() => void) | undefined;
const listeners = new Set<() => void>();
/** One for the life of the page: an app may hold it (`getHttpClient()`) from before a later configureApi call. */
const http = createHttpClient();

/** Called once by each entry point; everything else is shared between web and React Native. */
export function installPlatform(target: Platform): void {
  platform = target;
}

function installedPlatform(): Platform {
  if (!platform) throw new Error('Import gatehouse/client or gatehouse/client/native, not an internal module.');
  return platform;
}

function createSession(target: Platform, options: ApiOptions): SessionStore {
  const storage = options.storage ?? target.defaultStorage();
  const session = createSessionStore(storage, target.createEvents(storage));
  session.subscribe(announceSessionChange);
  return session;
}

function createRuntime(options: ApiOptions, session?: SessionStore): Runtime {
  const target = installedPlatform();
  const config = resolveConfig(options, target.defaultOnUnauthorized);
  return { config, session: session ?? createSession(target, options), http };
}

/** Makes `next` the runtime: the HTTP client follows its configuration and session from now on. */
function install(next: Runtime): Runtime {
  unbindHttp?.();
  unbindHttp = bindHttpClient(http, next.config, next.session);
  current = next;
  return next;
}

/** `undefined` means "not given", as a left-out key does: `{ ...current, ...given }` alone would reset it. */
function givenOptions(options: ApiOptions): ApiOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/**
 * Layers `options` over the current configuration: an option given (`routeGroup: null` included)
 * replaces the current one; one left out or `undefined` keeps it; the first call layers over the
 * defaults. The session is kept unless `storage` is given, which starts a new one on that storage.
 * A mounted provider and its hooks work with the new configuration from their next render on,
 * which this call brings about.
 */
export function configureApi(options: ApiOptions = {}): void {
  const given = givenOptions(options);
  const merged = { ...configured, ...given };
  // Built before anything is replaced, so a call that throws (React Native without storage) changes nothing.
  const next = createRuntime(merged, given.storage ? undefined : current?.session);
  const previous = current?.session;
  const replaced = previous !== undefined && next.session !== previous;
  if (replaced) previous.dispose();
  configured = merged;
  install(next);
  // Listeners hear the new session's every value, as they hear one restored from AsyncStorage.
  // A session still reading AsyncStorage tells them once restored: what it holds meanwhile is
  // not yet known, and a token told null would be a sign-out that never happened.
  if (replaced && next.session.isReady()) for (const key of SESSION_KEYS) announceSessionChange(key, next.session.get(key));
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` after every configureApi call; returns the unsubscribe. */
export function subscribeRuntime(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getRuntime(): Runtime {
  return current ?? install(createRuntime(configured));
}

/**
 * The configured axios instance, for endpoints without a hook; it carries the token and the
 * 401/403 handling. It is the same instance for the life of the page, following every
 * configureApi call.
 */
export function getHttpClient(): AxiosInstance {
  return getRuntime().http;
}
