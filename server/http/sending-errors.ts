import type Koa from 'koa';
import type { Logger } from 'pino';
import type { GatehouseState } from './state.js';

/** Node's code for a response closed before its body was all written: the client went away. */
const CLIENT_WENT_AWAY = 'ERR_STREAM_PREMATURE_CLOSE';

/**
 * Errors Koa meets after the handlers, while it sends a streamed body (a file of the web app):
 * into the log, never onto the terminal. Without a listener Koa prints each one's stack, and a
 * browser that leaves a page mid-download is routine, so that one is a debug line.
 */
export function logSendingErrors(app: Koa<GatehouseState>, logger: Logger): void {
  app.on('error', (error: NodeJS.ErrnoException, ctx?: Koa.ParameterizedContext<GatehouseState>) => {
    const requestId = ctx?.state.requestId;
    if (error.code === CLIENT_WENT_AWAY) logger.debug({ requestId, path: ctx?.path }, 'the client closed the connection before the answer was sent');
    else logger.error({ err: error, requestId }, 'sending the answer failed');
  });
}
