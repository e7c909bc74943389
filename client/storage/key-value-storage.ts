/**
 * What the session needs from a storage backend. Both `window.localStorage` (synchronous) and
 * React Native's AsyncStorage (promises) satisfy it unchanged.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/** The AsyncStorage shape an app hands to `gatehouse/client/native`. */
export interface AsyncKeyValueStorage extends KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}
