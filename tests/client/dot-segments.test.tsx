// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DotSegmentError, getHttpClient, useModelDelete, useModelIndex, useModelShow, useModelUpdate } from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

// A record id or slug of `.` or `..` would be resolved away by URL parsing (encoded as %2e too):
// `DELETE /api/acme/posts/..` would leave as `DELETE /api/acme/`. Such a request is never sent.

const bed = useTestbed(webPlatform);

/** What reached the server before a sentinel request answered. */
async function sentBeforeSentinel(): Promise<string[]> {
  bed.server.answer('GET', '/api/sentinel', { body: {} });
  await act(() => getHttpClient().get('/sentinel'));
  return bed.server.requests.map((request) => request.line).filter((line) => line !== 'GET /api/sentinel');
}

describe('a dot segment', () => {
  it.each(['.', '..'])('as a record id (%s): the show fails and the writes reject, sending nothing', async (id) => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    bed.server.answer('GET', /.*/, { body: { data: [] } });
    const { result } = bed.render(() => ({ show: useModelShow('posts', id), update: useModelUpdate('posts'), destroy: useModelDelete('posts') }));
    await waitFor(() => expect(result.current.show.error).toBeInstanceOf(DotSegmentError));
    expect((result.current.show.error as Error).message).toBe(`"${id}" cannot be a path segment: the request would address another URL.`);
    await act(() => expect(result.current.update.mutateAsync({ id, data: { title: 'x' } })).rejects.toBeInstanceOf(DotSegmentError));
    await act(() => expect(result.current.destroy.mutateAsync(id)).rejects.toBeInstanceOf(DotSegmentError));
    expect(await sentBeforeSentinel()).toEqual([]);
  });

  it('as the organization slug (storage written by hand): the data hooks throw as they render, sending nothing', async () => {
    bed.start({ stored: { token: 'tok', organization_slug: '..' } });
    bed.server.answer('GET', /.*/, { body: { data: [] } });
    expect(() => bed.render(() => useModelIndex('posts'))).toThrow(DotSegmentError);
    expect(await sentBeforeSentinel()).toEqual([]);
  });

  it('only as a whole segment: an id holding dots is sent, encoded', async () => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts/...', { body: { id: 1 } });
    const { result } = bed.render(() => useModelShow('posts', '...'));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(bed.server.requests.map((request) => request.line)).toEqual(['GET /api/acme/posts/...']);
  });
});
