import { act, cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { useAuth } from '../../../client/hooks/use-auth.js';
import type { LoginResult } from '../../../client/session/auth-requests.js';
import { configureAnew } from '../../client/support/configure-anew.js';
import { webPlatform, type StoredSession } from '../../client/support/platforms.js';
import { renderClientHook } from '../../client/support/testbed.js';
import { startDataServer } from '../../server/support/data-server.js';
import { DEMO_PASSWORD, type TestServer, type TestServerOptions } from '../../server/support/test-server.js';

/** The user object login and register answer with. */
export interface ServiceUser {
  id: number;
  name: string;
  email: string;
}

export interface LiveService {
  /** The real server and its database, for fixtures and for calls a browser would not make. */
  readonly server: TestServer;
  /**
   * A fresh browser page: empty localStorage, the web client configured against the server.
   * Returns its onUnauthorized and onForbidden spies.
   */
  openPage(): { onUnauthorized: ReturnType<typeof vi.fn>; onForbidden: ReturnType<typeof vi.fn> };
  /** Logs in through useAuth().login, as a login form would, and fails the test unless it succeeds. */
  signIn(email: string, password?: string): Promise<LoginResult<ServiceUser> & { success: true }>;
  /** What the page's localStorage holds now. */
  stored(): StoredSession;
}

/**
 * One real service per test file: the Koa server on an ephemeral 127.0.0.1 port over a fresh copy
 * of the demo database, serving the demo application's route groups, models and policies. The
 * jsdom page lives on another origin, so every call also crosses CORS.
 */
export function useLiveService(options: TestServerOptions = {}): LiveService {
  let server: TestServer | undefined;

  beforeAll(async () => {
    server = await startDataServer(options);
  });
  afterAll(() => server?.close());
  afterEach(cleanup);

  const started = () => {
    if (!server) throw new Error('the service starts in beforeAll');
    return server;
  };

  return {
    get server() {
      return started();
    },
    openPage() {
      // The previous page's trees belong to a session this page does not share.
      cleanup();
      const onUnauthorized = vi.fn();
      const onForbidden = vi.fn();
      configureAnew({ baseURL: `${started().api.baseUrl}/api`, storage: webPlatform.prepare({}), onUnauthorized, onForbidden });
      return { onUnauthorized, onForbidden };
    },
    async signIn(email, password = DEMO_PASSWORD) {
      const { result } = renderClientHook(() => useAuth<ServiceUser>());
      const login = await act(() => result.current.login(email, password));
      expect(login).toMatchObject({ success: true });
      return login as LoginResult<ServiceUser> & { success: true };
    },
    stored: () => webPlatform.stored(),
  };
}
