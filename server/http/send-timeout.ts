import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { unredactedLines } from '../observability/unredacted-lines.js';
import type { GatehouseState } from './state.js';

/**
 * Closes the connection of an answer its client stops taking. Once the request's handlers are
 * done and its answer is written, a connection on which no byte moves either way for `seconds`
 * is destroyed (Node's socket timeout), with a warning: Node would otherwise keep the socket and
 * the part of the answer the kernel has not taken for as long as the client stays connected.
 * A request being processed is never timed here: its deadline bounds it. Once the answer is out,
 * the timer is Node's again: the keep-alive timeout, or none while the connection's next
 * (pipelined) request is processed.
 */
export function sendTimeout(seconds: number, logger: Logger): Middleware<GatehouseState> {
  // Every field of the line is picked below, and none is a secret.
  const lines = unredactedLines(logger);
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const { res } = ctx;
      const socket = ctx.req.socket;
      // Set only once this answer holds the socket: a pipelined answer waits for the one before it.
      res.setTimeout(seconds * 1000, () => {
        lines.warn({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, sendTimeoutSeconds: seconds }, 'answer not taken: connection closed');
        socket.destroy();
      });
      // Before Node's own listener, which then sets the keep-alive timeout where it applies.
      res.prependOnceListener('finish', () => socket.setTimeout(0));
    }
  };
}
