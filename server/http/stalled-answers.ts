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

const MEGABYTE = 1024 * 1024;

/**
 * Looks in a row that must find an answer's bytes where they were before it counts against the
 * memory bound: a look that comes late, after the event loop was busy, may find them unmoved
 * because the server could not write, not because the client stopped taking them.
 */
const STALLED_LOOKS = 2;

/** What bounds the answers that clients stop taking: how long each may wait, and how much memory all of them may hold. */
export interface StalledAnswerLimits {
  sendTimeoutSeconds: number;
  stalledAnswersMegabytes: number;
}

/** An answer part of which waits in the server's buffer: its bytes, and how many looks in a row found them there. */
interface Waiting {
  socket: HttpSocket;
  bytes: number;
  looks: number;
}

/**
 * Closes the connections of answers their clients stop taking. Node would otherwise keep the
 * socket, and the part of the answer the kernel has not taken, for as long as the client stays
 * connected. An answer is stalled when part of it waits in Node's buffer and none of that part
 * has moved for looks in a row; a client that reads slowly keeps it moving and is never cut.
 * A stalled answer's connection is closed once it has not moved for `sendTimeoutSeconds`, or
 * sooner, the largest first, while the stalled answers together hold more than
 * `stalledAnswersMegabytes`: each answer is bounded in time, and all of them in memory, whoever
 * sends them. The time counts looks, not the clock, so a server too busy to look (or to write)
 * never blames its clients for it. Answers are looked at periodically, with the server's
 * connections known from their opening, so a request pays nothing for it: a request still being
 * processed, or answered whole, is never looked at.
 */
export function closeStalledAnswers(server: Server, { sendTimeoutSeconds, stalledAnswersMegabytes }: StalledAnswerLimits, logger: Logger): void {
  // Every field of the lines is picked below, and none is a secret.
  const lines = unredactedLines(logger);
  const sockets = new Set<HttpSocket>();
  const waiting = new WeakMap<Socket, Waiting>();
  const every = Math.min(CHECK_EVERY_MS, (sendTimeoutSeconds * 1000) / 2);
  const timedOutLooks = Math.ceil((sendTimeoutSeconds * 1000) / every);
  const bound = stalledAnswersMegabytes * MEGABYTE;
  server.on('connection', (socket: HttpSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const close = ({ socket }: Waiting, message: string, limit: Record<string, number>) => {
    const response = socket._httpMessage!;
    const { method, url = '/' } = response.req;
    lines.warn({ requestId: response.getHeader(REQUEST_ID_HEADER), method, path: url.split('?', 1)[0], status: response.statusCode, ...limit }, message);
    socket.destroy();
  };
  const check = setInterval(() => {
    const stalled: Waiting[] = [];
    for (const socket of sockets) {
      if (!socket._httpMessage?.headersSent || socket.writableLength === 0) {
        waiting.delete(socket);
        continue;
      }
      const bytes = unsent(socket);
      const last = waiting.get(socket);
      if (last?.bytes !== bytes) waiting.set(socket, { socket, bytes, looks: 0 });
      else if ((last.looks += 1) >= timedOutLooks) close(last, 'answer not taken: connection closed', { sendTimeoutSeconds });
      else if (last.looks >= STALLED_LOOKS) stalled.push(last);
    }
    let held = stalled.reduce((sum, { bytes }) => sum + bytes, 0);
    for (const answer of stalled.sort((a, b) => b.bytes - a.bytes)) {
      if (held <= bound) return;
      close(answer, 'answers not taken hold too much memory: connection closed', { stalledAnswersMegabytes });
      held -= answer.bytes;
    }
  }, every);
  check.unref();
  server.once('close', () => clearInterval(check));
}
