import { useSyncExternalStore } from 'react';
import { getRuntime, subscribeRuntime, type Runtime } from '../config/runtime.js';

/** The configured runtime, re-rendering the caller when configureApi replaces it. */
export function useRuntime(): Runtime {
  return useSyncExternalStore(subscribeRuntime, getRuntime, getRuntime);
}
