import { installPlatform } from './config/runtime.js';
import { createMemoryEvents } from './events/session-events.js';

installPlatform({
  defaultStorage: () => {
    throw new Error('gatehouse/client/native keeps the session in AsyncStorage: configureApi({ storage: AsyncStorage }) is required.');
  },
  createEvents: createMemoryEvents,
  // There is no URL to go back to on React Native: the app reacts to isAuthenticated turning false.
  defaultOnUnauthorized: () => undefined,
});

export * from './shared-exports.js';
