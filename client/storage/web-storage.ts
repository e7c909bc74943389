import type { KeyValueStorage } from './key-value-storage.js';
import { createMemoryStorage } from './memory-storage.js';

/** localStorage where the page has one; server-side rendering gets a throwaway memory store. */
export function webStorage(): KeyValueStorage {
  return typeof window !== 'undefined' && window.localStorage ? window.localStorage : createMemoryStorage();
}
