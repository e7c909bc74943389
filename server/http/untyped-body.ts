import type { IncomingMessage } from 'node:http';
import { BodyNotJsonError } from '../errors/body-not-json-error.js';
import { requestAborted } from './request-aborted.js';

/**
 * Settles once a body framed by Transfer-Encoding alone and naming no type shows what it is:
 * empty, it resolves, and the request is as bodiless as one without the header (some clients
 * frame a POST that has nothing to say so, `POST /api/auth/logout`); with a byte in it, a body of
 * no type the API reads, it is refused with 415 at its first bytes, and the rest is dropped
 * unread, as Node drops a body that no handler reads.
 */
export function emptyUntypedBody(req: IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      req.off('readable', readable).off('end', ended).off('error', aborted).off('close', aborted);
      outcome();
    };
    const readable = () => {
      // Null at the end of the body: 'end' follows.
      if (req.read() === null) return;
      settle(() => reject(new BodyNotJsonError()));
      req.resume();
    };
    const ended = () => settle(resolve);
    const aborted = () => settle(() => reject(requestAborted()));
    req.on('readable', readable).once('end', ended).once('error', aborted).once('close', aborted);
  });
}
