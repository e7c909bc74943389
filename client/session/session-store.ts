import type { SessionEvents } from '../events/session-events.js';
import type { KeyValueStorage } from '../storage/key-value-storage.js';
import type { SessionChangeListener } from './session-changes.js';
import { SESSION_KEYS, type SessionKey } from './session-keys.js';

export type SessionValues = Partial<Record<SessionKey, string | null>>;

/**
 * The session as React renders it, read synchronously: from a synchronous storage itself
 * (localStorage), from a cache over an asynchronous one (AsyncStorage). Once hydrated, a write
 * changes what `get` answers before it returns, as setters typed `=> void` must; it resolves once
 * storage holds it, so an awaited write is durable.
 */
export interface SessionStore {
  /** Settles once the stored values have been read; requests wait for it. */
  readonly ready: Promise<void>;
  isReady(): boolean;
  get(key: SessionKey): string | null;
  write(values: SessionValues): Promise<void>;
  /** Tells `listener` each session value written or read anew; other keys of the storage are not told. */
  subscribe(listener: SessionChangeListener): () => void;
  dispose(): void;
}

const isSessionKey = (key: string): key is SessionKey => (SESSION_KEYS as readonly string[]).includes(key);

const isPending = (read: unknown): read is PromiseLike<unknown> =>
  typeof (read as PromiseLike<unknown> | null)?.then === 'function';

export function createSessionStore(storage: KeyValueStorage, events: SessionEvents): SessionStore {
  const cache = new Map<SessionKey, string | null>();
  let hydrated = false;

  // Registered before any reader, so the cache already holds another tab's value when readers run.
  events.subscribe((key, value) => {
    if (isSessionKey(key)) cache.set(key, value);
  });

  const finishHydration = (values: (string | null)[]) => {
    SESSION_KEYS.forEach((key, index) => cache.set(key, values[index] ?? null));
    hydrated = true;
  };

  const reads = SESSION_KEYS.map((key) => storage.getItem(key));
  const synchronous = !reads.some(isPending);
  let ready: Promise<void>;
  if (!synchronous) {
    ready = Promise.all(reads).then((values) => {
      finishHydration(values);
      for (const key of SESSION_KEYS) events.emit(key, cache.get(key) ?? null);
    });
  } else {
    // Synchronous storage is read at once so the first render already knows the session.
    finishHydration(reads as (string | null)[]);
    ready = Promise.resolve();
  }

  const store: SessionStore = {
    ready,
    isReady: () => hydrated,
    // A synchronous storage (localStorage) is read each time, so what the page itself wrote or
    // cleared there counts at the next render; AsyncStorage through the cache. An empty value
    // (another script's, or one edited by hand) means none, as a falsy setter argument does.
    get: (key) => (synchronous ? (storage.getItem(key) as string | null) : cache.get(key)) || null,
    write(values) {
      if (!hydrated) return ready.then(() => store.write(values));
      const entries = Object.entries(values) as [SessionKey, string | null | undefined][];
      const stored = entries.map(([key, value]) => (value == null ? storage.removeItem(key) : storage.setItem(key, value)));
      for (const [key, value] of entries) events.emit(key, value ?? null);
      return Promise.all(stored).then(() => undefined);
    },
    subscribe: (listener) =>
      events.subscribe((key, value) => {
        if (isSessionKey(key)) listener(key, value || null);
      }),
    dispose: () => events.dispose(),
  };
  return store;
}
