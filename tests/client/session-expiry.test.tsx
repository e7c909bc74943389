// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getHttpClient, onSessionChange, useAuth } from '../../client/index.js';
import { messageOf } from './support/message-of.js';
import { webPlatform } from './support/platforms.js';
import type { Reply } from './support/test-server.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

const expired: Reply = { status: 401, body: { message: 'Unauthenticated.' } };

/** Answers every request to `path` only once the test releases it, so the session can change meanwhile. */
function holdAnswers(path: string, reply: Reply) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  bed.server.answer('GET', path, () => released.then(() => reply));
  return release;
}

/**
 * Sends a request and waits until the server has it, so it carries the token of this moment;
 * `answer` settles with the error once the server answers.
 */
async function inFlight(count: number) {
  const answer = getHttpClient().get('/acme/posts').catch((error: unknown) => error);
  await waitFor(() => expect(bed.server.requests.filter((request) => request.path === '/api/acme/posts')).toHaveLength(count));
  return { answer };
}

describe('a 401 ends the session its request was sent in, and only that one', () => {
  it('keeps a session that started while a request of the old one was in flight', async () => {
    const { onUnauthorized } = bed.start({ stored: { token: 'old-token', organization_slug: 'acme' } });
    const release = holdAnswers('/api/acme/posts', expired);
    bed.server.answer('POST', '/api/auth/login', { body: { token: 'new-token', user: { id: 2 }, organization: { slug: 'acme' } } });
    const { result } = bed.render(useAuth);
    const stale = await inFlight(1);

    await act(() => result.current.login('bob@acme.test', 'secret'));
    release();

    expect(messageOf(await stale.answer)).toBe('Unauthenticated.');
    expect(webPlatform.stored()).toEqual({ token: 'new-token', user: '{"id":2}', organization_slug: 'acme' });
    expect(result.current).toMatchObject({ isAuthenticated: true, token: 'new-token' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('runs onUnauthorized once when several requests of the session are refused together', async () => {
    const { onUnauthorized } = bed.start({ stored: { token: 'old-token', organization_slug: 'acme' } });
    const release = holdAnswers('/api/acme/posts', expired);
    const { result } = bed.render(useAuth);
    const first = await inFlight(1);
    const second = await inFlight(2);

    release();

    expect([messageOf(await first.answer), messageOf(await second.answer)]).toEqual(['Unauthenticated.', 'Unauthenticated.']);
    await waitFor(() => expect(result.current.isAuthenticated).toBe(false));
    expect(webPlatform.stored()).toEqual({ organization_slug: 'acme' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not navigate after a logout when a request of the ended session is refused', async () => {
    const { onUnauthorized } = bed.start({ stored: { token: 'old-token', organization_slug: 'acme' } });
    const release = holdAnswers('/api/acme/posts', expired);
    bed.server.answer('POST', '/api/auth/logout', { body: { message: 'Logged out' } });
    const { result } = bed.render(useAuth);
    const stale = await inFlight(1);

    await act(() => result.current.logout());
    release();

    expect(messageOf(await stale.answer)).toBe('Unauthenticated.');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('ends the session when the server refuses its token on a logout request the app sends itself', async () => {
    const { onUnauthorized } = bed.start({ stored: { token: 'old-token', user: '{"id":1}', organization_slug: 'acme' } });
    bed.server.answer('POST', '/api/auth/logout', expired);
    const { result } = bed.render(useAuth);

    await act(() => getHttpClient().post('/auth/logout').catch(() => undefined));

    expect(result.current.isAuthenticated).toBe(false);
    expect(webPlatform.stored()).toEqual({ organization_slug: 'acme' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not navigate when logout() without a session is answered 401', async () => {
    const { onUnauthorized } = bed.start();
    bed.server.answer('POST', '/api/auth/logout', expired);
    const { result } = bed.render(useAuth);
    await act(() => result.current.logout());
    expect(bed.server.requests.map((request) => request.line)).toEqual(['POST /api/auth/logout']);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('goes to / on the web when the app set no onUnauthorized', async () => {
    bed.start({ stored: { token: 'old-token' }, api: { onUnauthorized: null } });
    bed.server.answer('GET', '/api/ping', expired);
    const page = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { href: 'http://localhost:3000/posts' } });
    try {
      expect(messageOf(await getHttpClient().get('/ping').catch((error: unknown) => error))).toBe('Unauthenticated.');
      expect(window.location.href).toBe('/');
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: page });
    }
  });

  it('runs onUnauthorized for a request sent without a token', async () => {
    const { onUnauthorized } = bed.start({ stored: { organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', expired);
    bed.render(useAuth);
    expect(messageOf(await (await inFlight(1)).answer)).toBe('Unauthenticated.');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe("an app's onSessionChange listener", () => {
  it('hears a session configureApi starts, then its token and user removed by a 401 before onUnauthorized runs', async () => {
    bed.start();
    const heard: unknown[] = [];
    const stop = onSessionChange((key, value) => heard.push([key, value]));
    const { onUnauthorized } = bed.start({ stored: { token: 'old-token', user: '{"id":1}', organization_slug: 'acme' } });
    onUnauthorized.mockImplementation(() => heard.push('onUnauthorized'));
    bed.server.answer('GET', '/api/acme/posts', expired);

    await getHttpClient().get('/acme/posts').catch(() => undefined);
    stop();

    expect(heard).toEqual([
      ['token', 'old-token'],
      ['user', '{"id":1}'],
      ['organization_slug', 'acme'],
      ['route_group', null],
      ['token', null],
      ['user', null],
      'onUnauthorized',
    ]);
  });
});
