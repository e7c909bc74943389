import type { AxiosInstance } from 'axios';
import { cancellableReads, type ReadClient } from '../http/cancellable-reads.js';
import { endedSince } from '../session/ended-since.js';
import { SessionEndedError } from '../session/session-ended-error.js';
import type { SessionStore } from '../session/session-store.js';

/**
 * Every query's read: its requests abort with the query, and an answer that arrives after the
 * session it was asked in ended is refused. That session's end emptied the cache; the answer would
 * fill it again with the ended user's records.
 */
export async function readInSession<T>(
  http: AxiosInstance,
  session: SessionStore,
  signal: AbortSignal,
  read: (http: ReadClient) => Promise<T>,
): Promise<T> {
  // On React Native a read may start before the session is restored; the request waits for it
  // and carries the restored token, which is the session the answer belongs to.
  await session.ready;
  const token = session.get('token');
  const answer = await read(cancellableReads(http, signal));
  if (endedSince(token, session)) throw new SessionEndedError();
  return answer;
}
