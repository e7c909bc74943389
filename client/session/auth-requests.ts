import { isAxiosError } from 'axios';
import type { Runtime } from '../config/runtime.js';
import { errorMessage } from '../http/error-message.js';
import { bearerHeader } from '../http/http-client.js';
import { authUrl } from '../urls/auth-url.js';
import { startSession, type SessionResponse, type StartedSession } from './session-start.js';

export type LoginResult<User = unknown> =
  | ({ success: true } & StartedSession<User>)
  | { success: false; status?: number; error: string };

/** Never rejects: a failed login is a result the form renders, not an exception. */
export async function requestLogin<User>(
  runtime: Runtime,
  group: string | null,
  email: string,
  password: string,
): Promise<LoginResult<User>> {
  try {
    const { data } = await runtime.http.post<SessionResponse<User>>(authUrl(group, 'login'), { email, password });
    return { success: true, ...(await startSession(runtime.session, data, group)) };
  } catch (error) {
    const status = isAxiosError(error) ? error.response?.status : undefined;
    return { success: false, ...(status === undefined ? {} : { status }), error: errorMessage(error) };
  }
}

/**
 * Ends the session here at once, then asks the server to revoke it with the token it had: a
 * server that is down, or never answers, must not keep anyone signed in. Resolves once the server
 * answered or failed.
 */
export async function requestLogout(runtime: Runtime, group: string | null): Promise<void> {
  const authorization = bearerHeader(runtime.session.get('token'));
  await runtime.session.write({ token: null, user: null, organization_slug: null, route_group: null });
  await runtime.http.post(authUrl(group, 'logout'), undefined, authorization === undefined ? undefined : { headers: { Authorization: authorization } }).catch(() => undefined);
}
