// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { isCancel } from 'axios';
import { describe, expect, it, onTestFinished } from 'vitest';
import { getHttpClient, useModelIndex, useModelInfinite } from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

/** How the page's next request ends, as an interceptor of the app's own sees it. */
function nextOutcome(): Promise<'answered' | 'aborted' | 'failed'> {
  const http = getHttpClient();
  return new Promise((resolve) => {
    const id = http.interceptors.response.use(
      (response) => {
        resolve('answered');
        return response;
      },
      (error: unknown) => {
        resolve(isCancel(error) ? 'aborted' : 'failed');
        throw error;
      },
    );
    onTestFinished(() => http.interceptors.response.eject(id));
  });
}

describe('a read whose component unmounts', () => {
  it.each<[string, () => unknown]>([
    ['a query (useModelIndex)', () => useModelIndex('posts')],
    ['an infinite query (useModelInfinite)', () => useModelInfinite('posts')],
  ])('%s is aborted, and its answer reaches no one', async (_name, hook) => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    let answer = () => undefined as void;
    bed.server.answer('GET', '/api/acme/posts', () => new Promise((resolve) => (answer = () => resolve({ body: { data: [] } }))));
    const outcome = nextOutcome();
    const { unmount } = bed.render(hook);
    await waitFor(() => expect(bed.server.requests).toHaveLength(1));

    unmount();
    answer();

    expect(await outcome).toBe('aborted');
  });
});
