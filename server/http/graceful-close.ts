import { once } from 'node:events';
import type { Server, ServerResponse } from 'node:http';

/**
 * Prepares `server` to stop the way a deploy expects, returning the function that stops it: no
 * new connections, idle keep-alive ones closed at once, running requests given `graceMs` to
 * finish (answered with `Connection: close`, their connections closed after the answer), then
 * every connection still open is cut. Tells whether it had to cut any.
 */
export function gracefulClose(server: Server): (graceMs: number) => Promise<{ forced: boolean }> {
  let closing = false;
  const running = new Set<ServerResponse>();
  server.on('request', (_request, response: ServerResponse) => {
    running.add(response);
    if (closing) response.shouldKeepAlive = false;
    response.on('close', () => running.delete(response));
    // The connection is idle once its answer is out: close it then, not at keep-alive's timeout.
    response.on('finish', () => closing && setImmediate(() => server.closeIdleConnections()));
  });
  return async (graceMs) => {
    if (!server.listening) return { forced: false };
    closing = true;
    for (const response of running) if (!response.headersSent) response.shouldKeepAlive = false;
    const closed = once(server, 'close');
    server.close();
    server.closeIdleConnections();
    let forced = false;
    const force = setTimeout(() => {
      forced = true;
      server.closeAllConnections();
    }, graceMs);
    try {
      await closed;
    } finally {
      clearTimeout(force);
    }
    return { forced };
  };
}
