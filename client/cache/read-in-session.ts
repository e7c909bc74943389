import type { AxiosInstance } from 'axios';
import { getRuntime } from '../config/runtime.js';
import { cancellableReads, type ReadClient } from '../http/cancellable-reads.js';
import { endedSince } from '../session/ended-since.js';
import { SessionEndedError } from '../session/session-ended-error.js';

/**
 * Every query's read: its requests abort with the query, and an answer that arrives after the
 * session it was asked in ended is refused. That session's end emptied the cache; the answer would
 * fill it again with the ended user's records. The session is the client's at each moment, not
 * the one the hook rendered with: `configureApi({ storage })` may have started another meanwhile.
 */
export async function readInSession<T>(http: AxiosInstance, signal: AbortSignal, read: (http: ReadClient) => Promise<T>): Promise<T> {
  // On React Native a read may start before the session is restored; the request waits for it
  // and carries the restored token, which is the session the answer belongs to.
  await getRuntime().session.ready;
  const token = getRuntime().session.get('token');
  const answer = await read(cancellableReads(http, signal));
  if (endedSince(token, getRuntime().session)) throw new SessionEndedError();
  return answer;
}
