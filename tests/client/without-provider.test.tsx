// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useAuth, useModelIndex, useModelStore, useOwner, useRegister } from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

/** An app that gives the hooks a QueryClient of its own and no AuthProvider. */
function renderWithQueryClient<T>(hook: () => T) {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(hook, { wrapper });
}

describe('hooks below a QueryClientProvider and no AuthProvider', () => {
  it("read and write at configureApi's URLs with the stored session", async () => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' }, api: { routeGroup: 'staff', routeGroupInDataPath: true } });
    bed.server.answer('GET', '/api/staff/acme/posts', { body: { data: [{ id: 1 }] } });
    bed.server.answer('GET', '/api/staff/acme/organizations', { body: { data: [{ id: 1, name: 'Acme', slug: 'acme' }] } });
    bed.server.answer('POST', '/api/staff/acme/posts', { status: 201, body: { id: 2 } });
    const { result } = renderWithQueryClient(() => ({ posts: useModelIndex('posts'), owner: useOwner(), store: useModelStore('posts') }));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ id: 1 }]));
    await waitFor(() => expect(result.current.owner.data).toMatchObject({ slug: 'acme' }));
    await act(() => result.current.store.mutateAsync({ title: 'x' }));
    expect(bed.server.requests.map((request) => [request.line, request.headers.authorization])).toContainEqual(['POST /api/staff/acme/posts', 'Bearer tok']);
  });

  it('start a session with useRegister, at the configured group', async () => {
    bed.start({ api: { routeGroup: 'staff' } });
    bed.server.answer('POST', '/api/staff/auth/register', { status: 201, body: { token: 'new-token', user: { id: 1 }, organization: { slug: 'acme' } } });
    const { result } = renderWithQueryClient(useRegister);
    await act(() => result.current.mutateAsync({ token: 'i', name: 'Ann', email: 'ann@acme.test', password: 'p', password_confirmation: 'p' }));
    expect(webPlatform.stored()).toMatchObject({ token: 'new-token', organization_slug: 'acme', route_group: 'staff' });
  });

  it('read again with the token useRegister starts a session with', async () => {
    bed.start({ api: { tenancy: 'none' } });
    bed.server.answer('GET', '/api/posts', (request) => ({ body: { data: [{ as: request.headers.authorization ?? 'guest' }] } }));
    bed.server.answer('POST', '/api/auth/register', { status: 201, body: { token: 'new-token', user: { id: 1 } } });
    const { result } = renderWithQueryClient(() => ({ register: useRegister(), posts: useModelIndex('posts') }));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ as: 'guest' }]));
    await act(() => result.current.register.mutateAsync({ token: 'i', name: 'Ann', email: 'ann@acme.test', password: 'p', password_confirmation: 'p' }));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ as: 'Bearer new-token' }]));
  });

  it('leave useAuth to the provider, saying so', () => {
    bed.start();
    expect(() => renderWithQueryClient(useAuth)).toThrow('useAuth must be used inside <AuthProvider>.');
  });
});
