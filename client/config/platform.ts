import type { SessionEvents } from '../events/session-events.js';
import type { KeyValueStorage } from '../storage/key-value-storage.js';

/** The only things the web and React Native entry points do differently. */
export interface Platform {
  defaultStorage(): KeyValueStorage;
  createEvents(storage: KeyValueStorage): SessionEvents;
  defaultOnUnauthorized(): void;
}
