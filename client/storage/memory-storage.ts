import type { KeyValueStorage } from './key-value-storage.js';

/** Keeps values for the life of the page only: the fallback where no persistent storage exists. */
export function createMemoryStorage(): KeyValueStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => {
      values.set(key, value);
    },
    removeItem: (key) => {
      values.delete(key);
    },
  };
}
