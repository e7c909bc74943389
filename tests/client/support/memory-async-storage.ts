import type { AsyncKeyValueStorage } from '../../../client/native.js';

/** AsyncStorage answers after a trip over the native bridge, never within the caller's microtasks. */
const bridgeHop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stands in for React Native's AsyncStorage: same promise-returning methods, values in a Map. */
export class MemoryAsyncStorage implements AsyncKeyValueStorage {
  readonly values = new Map<string, string>();

  async getItem(key: string): Promise<string | null> {
    await bridgeHop();
    return this.values.get(key) ?? null;
  }

  async setItem(key: string, value: string): Promise<void> {
    await bridgeHop();
    this.values.set(key, value);
  }

  async removeItem(key: string): Promise<void> {
    await bridgeHop();
    this.values.delete(key);
  }
}
