import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it } from 'vitest';
import { refusalOf, refusalText } from '../../client/index.js';

/** The error axios rejects with for an answer of `status` with `data`. */
function answered(status: number, data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response: AxiosResponse = { status, statusText: '', headers: {}, config, data };
  return new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_REQUEST', config, null, response);
}

describe('refusalOf', () => {
  it("reads a 403's reason, and nothing from a 404, a 403 without one, or another error", () => {
    const reason = { gate: 'policy', permission: 'posts.destroy' };
    expect(refusalOf(answered(403, { message: 'This action is unauthorized.', reason }))).toEqual(reason);
    expect(refusalOf(answered(403, { message: 'This action is unauthorized.' }))).toBeNull();
    expect(refusalOf(answered(404, { message: 'Resource not found', reason }))).toBeNull();
    expect(refusalOf(new Error('offline'))).toBeNull();
  });
});

describe('refusalText', () => {
  it.each([
    [{ gate: 'policy', permission: 'posts.destroy' }, 'You lack posts.destroy'],
    [{ gate: 'policy', permission: 'posts.store', policy: 'PostPolicy.create' }, 'Refused by PostPolicy.create'],
    [{ gate: 'fields', fields: ['internal_notes'], policy: 'PostPolicy.permittedAttributesForCreate' }, 'You may not set internal_notes (PostPolicy.permittedAttributesForCreate)'],
    [{ gate: 'include', include: 'comments.author', permission: 'users.index' }, 'You may not include comments.author: you lack users.index'],
    [{ gate: 'route_group' }, 'You are not a member of this route group'],
    [{ gate: 'administration', permission: 'decisions.explain' }, 'You lack decisions.explain'],
    [{ gate: 'policy', permission: 'posts.forceDelete', denied: true }, 'posts.forceDelete was denied to you'],
    [{ gate: 'policy', permission: 'posts.update', conditions: ['posts.update:own'] }, 'posts.update does not reach this record (posts.update:own)'],
  ] as const)('%j reads "%s"', (reason, text) => {
    expect(refusalText(reason)).toBe(text);
  });
});
