import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CACHE_ROOT } from '../cache/cache-keys.js';
import { getRuntime, subscribeRuntime } from '../config/runtime.js';
import { endedSince } from '../session/ended-since.js';
import { onSessionChange } from '../session/session-changes.js';

/**
 * Keeps what this library cached in `client` to the client's session. It forgets it when a
 * session ends, however it ends: logout, a 401, another tab removing or replacing the token,
 * `configureApi({ storage })` starting a session on another storage. It runs as the session
 * change is announced, before anything renders with the next session, so a user signing in after
 * another on the same page never sees the other's records, not for one render.
 *
 * A query no component shows is removed, and so is one on screen when another session took the
 * ended one's place (another tab's sign-in): its component, re-rendered with the new session,
 * reads it again in that one. Signed out, one on screen is emptied in place and not refetched: a
 * new query in its place would be fetched signed out, and its 401 would run onUnauthorized again
 * (or, after a logout, navigate); the read under way still settles into it, so the request whose
 * 401 ended the session shows that error (an answer to the ended session is refused, see
 * readInSession).
 *
 * A session that starts where there was none (a login, here or in another tab after a logout
 * there) reads every query again in it: what was read signed out, and what its end emptied,
 * which nothing else would fetch again.
 */
export function useCacheFollowingSession(client: QueryClient): void {
  useEffect(() => {
    const follower = followers.get(client) ?? { providers: 0, stop: followSession(client) };
    followers.set(client, follower);
    follower.providers += 1;
    return () => {
      follower.providers -= 1;
      if (follower.providers > 0) return;
      follower.stop();
      followers.delete(client);
    };
  }, [client]);
}

/**
 * One follower for each QueryClient, however many providers share it: each would refetch at a
 * session's start, cancelling the refetch of the one before and sending every query again.
 */
const followers = new WeakMap<QueryClient, { providers: number; stop: () => void }>();

/** Whether a provider keeps `client`'s queries to the session, refetching them as one starts. */
export const followsSession = (client: QueryClient): boolean => followers.has(client);

function followSession(client: QueryClient): () => void {
  let token = getRuntime().session.get('token');
  const follow = () => {
    const { session } = getRuntime();
    const ended = endedSince(token, session);
    const started = token === null && session.get('token') !== null;
    token = session.get('token');
    if (started) void client.invalidateQueries({ queryKey: [CACHE_ROOT] });
    if (!ended) return;
    const cache = client.getQueryCache();
    for (const query of cache.findAll({ queryKey: [CACHE_ROOT] })) {
      if (query.getObserversCount() === 0 || token !== null) cache.remove(query);
      else query.setState({ data: undefined, dataUpdatedAt: 0, status: query.state.status === 'error' ? 'error' : 'pending' });
    }
  };
  // A session configureApi starts on an AsyncStorage still being read is told once restored;
  // until then its token is unknown, and the replaced session's records are not shown.
  const stopRuntime = subscribeRuntime(follow);
  const stopSession = onSessionChange(follow);
  return () => {
    stopRuntime();
    stopSession();
  };
}
