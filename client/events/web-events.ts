import { SESSION_KEYS } from '../session/session-keys.js';
import type { KeyValueStorage } from '../storage/key-value-storage.js';
import { createMemoryEvents, type SessionEvents } from './session-events.js';

/**
 * In-page events plus the browser's `storage` event, which reports writes made by other tabs
 * (a tab never receives its own writes that way).
 */
export function createWebEvents(storage: KeyValueStorage): SessionEvents {
  const events = createMemoryEvents();
  if (typeof window === 'undefined') return events;

  const onStorage = (event: StorageEvent) => {
    if (event.storageArea !== storage) return;
    if (event.key !== null) {
      events.emit(event.key, event.newValue);
      return;
    }
    // `clear()` in another tab arrives with a null key: every session value is gone.
    for (const key of SESSION_KEYS) events.emit(key, null);
  };
  window.addEventListener('storage', onStorage);
  return {
    ...events,
    dispose() {
      window.removeEventListener('storage', onStorage);
      events.dispose();
    },
  };
}
