import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { closingAnswerText } from './client-error.js';

/** The refusal of a connection past its client's limit. */
const tooManyConnectionsMessage = (limit: number) => `Too many connections from this client: at most ${limit}.`;

/**
 * Bounds the connections one client address holds open at once. Every open connection costs the
 * process a file descriptor and memory until it closes, idle ones up to the headers timeout: one
 * client opening thousands would leave none for other tenants' clients, and new connections of
 * every client would be dropped. A connection past the limit is answered 429 and closed before any
 * request on it is read; those already open are untouched. The address is the connection's peer:
 * behind proxies that is a proxy, so the resolved config leaves the limit off there by default.
 */
export function limitConnectionsPerClient(server: Server, limit: number): void {
  const open = new Map<string, number>();
  const refusal = closingAnswerText(429, tooManyConnectionsMessage(limit));
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > limit) {
      // Nothing more is read, so no request of it ever reaches the app; the answer is written
      // whole, then the socket closed, whatever the client does next.
      socket.pause();
      socket.end(refusal, () => socket.destroy());
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
