import type { KeyValueStorage } from './key-value-storage.js';
import { createMemoryStorage } from './memory-storage.js';

/**
 * localStorage where the page may use it; a throwaway memory store for server-side rendering and
 * for pages whose localStorage access throws (cookies blocked, a sandboxed frame).
 */
export function webStorage(): KeyValueStorage {
  try {
    if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  } catch {
    // The SecurityError of a blocked localStorage: the session then lasts as long as the page.
  }
  return createMemoryStorage();
}
