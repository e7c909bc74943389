import { QueryClient } from '@tanstack/react-query';
import { cleanup, configure, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, vi } from 'vitest';
import type { ApiOptions } from '../../../client/config/api-config.js';
import { AuthProvider, type AuthProviderProps } from '../../../client/react/auth-provider.js';
import { configureAnew } from './configure-anew.js';
import type { StoredSession, TestPlatform } from './platforms.js';
import { useTestServer, type TestServer } from './test-server.js';

// A ceiling for waitFor on a loaded machine (the whole suite runs files in parallel), not a timing claim.
configure({ asyncUtilTimeout: 10_000 });

export interface StartOptions {
  /** What storage holds before the client starts. */
  stored?: StoredSession;
  api?: ApiOptions;
}

export interface RenderOptions<Props> {
  provider?: Omit<AuthProviderProps, 'children' | 'queryClient'>;
  initialProps?: Props;
  /** Shared by trees that stand for parts of one page; each tree gets its own otherwise. */
  queryClient?: QueryClient;
}

export interface Testbed {
  server: TestServer;
  platform: TestPlatform;
  /** Configures the client against the test server; returns its onUnauthorized and onForbidden spies. */
  start(options?: StartOptions): { onUnauthorized: ReturnType<typeof vi.fn>; onForbidden: ReturnType<typeof vi.fn> };
  render: typeof renderClientHook;
}

/**
 * Renders a hook inside its own AuthProvider, sharing the session configureApi set up. Needs no
 * test server: a suite against the real service configures the client and calls this directly.
 */
export function renderClientHook<T, Props = undefined>(
  hook: (props: Props) => T,
  { provider = {}, initialProps, queryClient = new QueryClient() }: RenderOptions<Props> = {},
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AuthProvider queryClient={queryClient} {...provider}>
      {children}
    </AuthProvider>
  );
  return renderHook(hook, { wrapper, initialProps });
}

/** Renders a query in a tree of its own, sharing the session, until it has failed; resolves to the error. */
export async function failedQuery(hook: () => { isError: boolean; error: unknown }): Promise<unknown> {
  const { result } = renderClientHook(hook);
  await waitFor(() => expect(result.current.isError).toBe(true));
  return result.current.error;
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
      configureAnew({ baseURL: server.baseURL, storage: platform.prepare(stored), onUnauthorized, onForbidden, ...api });
      return { onUnauthorized, onForbidden };
    },
    render: renderClientHook,
  };
}
