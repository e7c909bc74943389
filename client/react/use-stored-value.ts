import { useSyncExternalStore } from 'react';
import type { SessionKey } from '../session/session-keys.js';
import type { SessionStore } from '../session/session-store.js';

/** Re-renders when the key changes in this tab, another tab (web) or another component (native). */
export function useStoredValue(session: SessionStore, key: SessionKey): string | null {
  const read = () => session.get(key);
  return useSyncExternalStore(session.subscribe, read, read);
}
