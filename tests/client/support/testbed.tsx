import { QueryClient } from '@tanstack/react-query';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import type { ApiOptions } from '../../../client/config/api-config.js';
import { configureApi } from '../../../client/config/runtime.js';
import { AuthProvider, type AuthProviderProps } from '../../../client/react/auth-provider.js';
import type { StoredSession, TestPlatform } from './platforms.js';
import { useTestServer, type TestServer } from './test-server.js';

export interface StartOptions {
  /** What storage holds before the client starts. */
  stored?: StoredSession;
  api?: ApiOptions;
}

export interface RenderOptions<Props> {
  provider?: Omit<AuthProviderProps, 'children' | 'queryClient'>;
  initialProps?: Props;
}

export interface Testbed {
  server: TestServer;
  platform: TestPlatform;
  /** Configures the client against the test server; returns its onUnauthorized and onForbidden spies. */
  start(options?: StartOptions): { onUnauthorized: ReturnType<typeof vi.fn>; onForbidden: ReturnType<typeof vi.fn> };
  /** Renders a hook inside its own AuthProvider (sharing the configured session). */
  render<T, Props = undefined>(hook: (props: Props) => T, options?: RenderOptions<Props>): ReturnType<typeof renderHook<T, Props>>;
}

/** One test server per file, a fresh client configuration per test, unmounted after each. */
export function useTestbed(platform: TestPlatform): Testbed {
  const server = useTestServer();
  afterEach(cleanup);
  return {
    server,
    platform,
    start({ stored = {}, api = {} } = {}) {
      const onUnauthorized = vi.fn();
      const onForbidden = vi.fn();
      configureApi({ baseURL: server.baseURL, storage: platform.prepare(stored), onUnauthorized, onForbidden, ...api });
      return { onUnauthorized, onForbidden };
    },
    render(hook, { provider = {}, initialProps } = {}) {
      const queryClient = new QueryClient();
      const wrapper = ({ children }: { children: ReactNode }) => (
        <AuthProvider queryClient={queryClient} {...provider}>
          {children}
        </AuthProvider>
      );
      return renderHook(hook, { wrapper, initialProps });
    },
  };
}
