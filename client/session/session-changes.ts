import type { SessionKey } from './session-keys.js';

/** Told a session value that was written or read anew: its key, and the value, null for none. */
export type SessionChangeListener = (key: SessionKey, value: string | null) => void;

const listeners = new Set<SessionChangeListener>();

/**
 * Calls `listener` with each session value as it changes, whichever session the client is on:
 * written by this page (login, logout, a 401 ending the session, the setters), by another tab
 * (web), read from AsyncStorage once restored (React Native), or read from the storage a
 * `configureApi({ storage })` call started a session on. Returns the unsubscribe.
 */
export function onSessionChange(listener: SessionChangeListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Tells every listener. One that throws is reported on its own, after the others ran: the
 * provider forgetting an ended session's records is one of them.
 */
export const announceSessionChange: SessionChangeListener = (key, value) => {
  for (const listener of [...listeners]) {
    try {
      listener(key, value);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
};
