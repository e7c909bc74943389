import axios, { type AxiosError, type AxiosInstance } from 'axios';
import type { ApiConfig } from '../config/api-config.js';
import type { SessionStore } from '../session/session-store.js';
import { isCredentialEndpoint } from '../urls/auth-url.js';

/** The axios instance every hook uses: bearer token in, session expiry and denial out. */
export function createHttpClient(config: ApiConfig, session: SessionStore): AxiosInstance {
  const http = axios.create({ baseURL: config.baseURL, headers: { Accept: 'application/json' } });

  http.interceptors.request.use(async (request) => {
    // On React Native the token is still being read when the first screen mounts.
    await session.ready;
    const token = session.get('token');
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  });

  http.interceptors.response.use(undefined, async (error: AxiosError<{ message?: string }>) => {
    const status = error.response?.status;
    if (status === 401 && !isCredentialEndpoint(error.config?.url)) {
      await session.write({ token: null, user: null });
      config.onUnauthorized();
    }
    if (status === 403) config.onForbidden(error);
    throw error;
  });

  return http;
}
