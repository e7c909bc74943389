import type { KeyValueStorage } from '../../../client/storage/key-value-storage.js';
import { SESSION_KEYS, type SessionKey } from '../../../client/session/session-keys.js';
import { MemoryAsyncStorage } from './memory-async-storage.js';

/** The stored session as a plain object; absent keys are left out. */
export type StoredSession = Partial<Record<SessionKey, string>>;

/** How a test reaches the storage of one platform. */
export interface TestPlatform {
  name: string;
  /** Storage holding exactly `values`, to hand to configureApi. */
  prepare(values: StoredSession): KeyValueStorage;
  /** What storage holds right now, read synchronously so a test can look at one exact moment. */
  stored(): StoredSession;
}

function readSession(read: (key: SessionKey) => string | null | undefined): StoredSession {
  const entries = SESSION_KEYS.map((key) => [key, read(key)] as const);
  return Object.fromEntries(entries.filter(([, value]) => value != null));
}

export const webPlatform: TestPlatform = {
  name: 'web',
  prepare(values) {
    window.localStorage.clear();
    for (const [key, value] of Object.entries(values)) window.localStorage.setItem(key, value);
    return window.localStorage;
  },
  stored: () => readSession((key) => window.localStorage.getItem(key)),
};

export function nativePlatform(): TestPlatform & { storage(): MemoryAsyncStorage } {
  let current = new MemoryAsyncStorage();
  return {
    name: 'native',
    prepare(values) {
      current = new MemoryAsyncStorage();
      for (const [key, value] of Object.entries(values)) current.values.set(key, value);
      return current;
    },
    stored: () => readSession((key) => current.values.get(key)),
    storage: () => current,
  };
}
