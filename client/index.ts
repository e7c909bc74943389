import { installPlatform } from './config/runtime.js';
import { createWebEvents } from './events/web-events.js';
import { webStorage } from './storage/web-storage.js';

installPlatform({
  defaultStorage: webStorage,
  createEvents: createWebEvents,
  // Assigning href, as rhino-react does, works on a stand-in Location object too (a test's, a webview's).
  defaultOnUnauthorized: () => {
    window.location.href = '/';
  },
});

export * from './shared-exports.js';
