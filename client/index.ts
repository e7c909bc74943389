import { installPlatform } from './config/runtime.js';
import { createWebEvents } from './events/web-events.js';
import { webStorage } from './storage/web-storage.js';

installPlatform({
  defaultStorage: webStorage,
  createEvents: createWebEvents,
  defaultOnUnauthorized: () => window.location.assign('/'),
});

export * from './shared-exports.js';
