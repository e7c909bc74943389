import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what is left of a body refused part-way. A body left unread holds up the
 * connection: the next request on it (a keep-alive client's, a proxy's pooled one) is never read.
 */
export function drainRequest(request: IncomingMessage): void {
  request.unpipe();
  request.resume();
}
