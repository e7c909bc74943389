import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// Per kept-alive connection, the callbacks of the answers queued on it, with one 'close' listener
// however many requests a client pipelines (one listener each would pass Node's leak warning).
const queued = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `closed` if the connection closes while `response` is queued behind the answers to the
 * requests pipelined before it. Node hands such an answer its socket only once those are out, and
 * until then the answer hears nothing of the client leaving (its own 'close' comes from the
 * socket), so a request processed meanwhile would run on for no one.
 */
export function watchQueuedAnswer(socket: Socket, response: ServerResponse, closed: () => void): void {
  if (response.socket !== null) return;
  if (socket.destroyed) return closed();
  let callbacks = queued.get(socket);
  if (callbacks === undefined) {
    const listening = new Set<() => void>();
    queued.set(socket, listening);
    socket.once('close', () => {
      queued.delete(socket);
      for (const callback of listening) callback();
    });
    callbacks = listening;
  }
  const waiting = callbacks;
  waiting.add(closed);
  // From here on the answer's own 'close' tells.
  response.once('socket', () => waiting.delete(closed));
}
