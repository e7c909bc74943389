import axios, { type AxiosError, type AxiosInstance } from 'axios';
import type { ApiConfig } from '../config/api-config.js';
import type { SessionStore } from '../session/session-store.js';
import { sessionActionOf } from '../urls/auth-url.js';

/** The Authorization header a session's token travels in; undefined without one. */
export const bearerHeader = (token: string | null) => (token ? `Bearer ${token}` : undefined);

/** The one axios instance of the page, which every hook uses; `bindHttpClient` configures it. */
export function createHttpClient(): AxiosInstance {
  return axios.create({ headers: { Accept: 'application/json' } });
}

/**
 * Points the instance at a configuration and a session: its base URL, the bearer token in, session
 * expiry and denial out. Returns the unbinding, which takes out what this added and nothing else
 * (an app's own interceptors stay).
 */
export function bindHttpClient(http: AxiosInstance, config: ApiConfig, session: SessionStore): () => void {
  http.defaults.baseURL = config.baseURL;

  const request = http.interceptors.request.use(async (request) => {
    // On React Native the token is still being read when the first screen mounts.
    await session.ready;
    const header = bearerHeader(session.get('token'));
    if (header) request.headers.set('Authorization', header);
    return request;
  });

  const sentHeader = (error: AxiosError) => error.config?.headers.get('Authorization') ?? undefined;

  /**
   * A 401 ends the session its request was sent in. That session may be over already: ended by
   * a 401 of a request sent alongside, or by a logout, or replaced by a new login meanwhile.
   */
  const sentInCurrentSession = (error: AxiosError) => sentHeader(error) === bearerHeader(session.get('token'));

  /**
   * A login's 401 is wrong credentials, not an expired session; a logout sent without a token
   * had no session to end, and logging out never navigates.
   */
  const endsSession = (error: AxiosError) => {
    const action = sessionActionOf(error.config?.url);
    if (action === 'login' || (action === 'logout' && sentHeader(error) === undefined)) return false;
    return sentInCurrentSession(error);
  };

  const response = http.interceptors.response.use(undefined, async (error: AxiosError<{ message?: string }>) => {
    const status = error.response?.status;
    if (status === 401 && endsSession(error)) {
      await session.write({ token: null, user: null });
      config.onUnauthorized();
    }
    if (status === 403) config.onForbidden(error);
    throw error;
  });

  return () => {
    http.interceptors.request.eject(request);
    http.interceptors.response.eject(response);
  };
}
