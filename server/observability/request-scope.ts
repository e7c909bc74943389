import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

/**
 * The request a statement runs for, as far as its debug lines need it: the request's logger.
 * Entered only when debug logging is on, so no request pays for the async context otherwise.
 */
export const requestScope = new AsyncLocalStorage<Logger>();
