import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { unredactedLines } from '../observability/unredacted-lines.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * A server socket with the response it is writing, if any, and its handle's bytes still to go
 * (Node's own handlers read the same fields: a write is one chunk of the stream until it has
 * gone whole, so only the handle tells that part of it went).
 */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null; _handle?: { writeQueueSize?: number } | null };

/** The bytes of the socket's answers that have not gone yet: Node's buffer, and what the handle has of its current write. */
const unsent = (socket: HttpSocket) => socket.writableLength + (socket._handle?.writeQueueSize ?? 0);

/** How often answers are looked at, at most: Node looks at the headers and request timeouts each second too. */
const CHECK_EVERY_MS = 1_000;

/**
 * Closes the connection of an answer its client stops taking: Node would otherwise keep the
 * socket, and the part of the answer the kernel has not taken, for as long as the client stays
 * connected. An answer is stalled when part of it waits in Node's buffer and none of that part
 * has gone for `seconds`; a client that reads slowly keeps it moving. Answers are looked at
 * periodically, with the server's connections known from their opening, so a request pays
 * nothing for it: a request still being processed, or answered whole, is never looked at again.
 */
export function closeStalledAnswers(server: Server, seconds: number, logger: Logger): void {
  // Every field of the line is picked below, and none is a secret.
  const lines = unredactedLines(logger);
  const sockets = new Set<HttpSocket>();
  // The bytes an answer had waiting the last time it moved, and when.
  const waiting = new WeakMap<Socket, { bytes: number; since: number }>();
  server.on('connection', (socket: HttpSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const check = setInterval(() => {
    const now = Date.now();
    for (const socket of sockets) {
      const response = socket._httpMessage;
      if (!response?.headersSent || socket.writableLength === 0) {
        waiting.delete(socket);
        continue;
      }
      const bytes = unsent(socket);
      const last = waiting.get(socket);
      if (last?.bytes !== bytes) waiting.set(socket, { bytes, since: now });
      else if (now - last.since >= seconds * 1000) {
        const { method, url = '/' } = response.req;
        lines.warn({ requestId: response.getHeader(REQUEST_ID_HEADER), method, path: url.split('?', 1)[0], status: response.statusCode, sendTimeoutSeconds: seconds }, 'answer not taken: connection closed');
        socket.destroy();
      }
    }
  }, Math.min(CHECK_EVERY_MS, (seconds * 1000) / 2));
  check.unref();
  server.once('close', () => clearInterval(check));
}
