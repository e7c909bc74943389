// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAcceptInvitation, useCancelInvitation, useInvitations, useInviteUser, useResendInvitation } from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

const pending = { id: 9, email: 'new@acme.test', role_id: 3, status: 'pending' };

function useInvitationHooks(status?: string) {
  return {
    list: useInvitations({ status }),
    invite: useInviteUser(),
    resend: useResendInvitation(),
    cancel: useCancelInvitation(),
  };
}

type Hooks = ReturnType<typeof useInvitationHooks>;

describe('invitations', () => {
  it('lists the invitations with the given status', async () => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/invitations', { body: { data: [pending] } });
    const { result } = bed.render(() => useInvitationHooks('pending'));
    await waitFor(() => expect(result.current.list.data).toEqual([pending]));
    expect(bed.server.requests[0]?.query).toEqual({ status: 'pending' });
  });

  it.each([
    ['the status alone, as rhino-react takes it', 'pending', { status: 'pending' }],
    ["'all', which lists every status", 'all', {}],
  ])('takes %s', async (_name, status, query) => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/invitations', { body: { data: [pending] } });
    const { result } = bed.render(() => useInvitations(status));
    await waitFor(() => expect(result.current.data).toEqual([pending]));
    expect(bed.server.requests.map((request) => request.query)).toEqual([query]);
  });

  it('accepts an invitation given its token alone, as rhino-react takes it', async () => {
    bed.start();
    bed.server.answer('POST', '/api/invitations/accept', { body: { requires_registration: true, email: 'new@acme.test' } });
    const { result } = bed.render(useAcceptInvitation);
    await expect(act(() => result.current.mutateAsync('invite'))).resolves.toEqual({ requires_registration: true, email: 'new@acme.test' });
    expect(bed.server.requests.map((request) => [request.line, request.body])).toEqual([['POST /api/invitations/accept', { token: 'invite' }]]);
  });

  it.each<[string, (hooks: Hooks) => Promise<unknown>, string, unknown]>([
    [
      'invite',
      (hooks) => hooks.invite.mutateAsync({ email: 'new@acme.test', role_id: 3, route_group: 'staff' }),
      'POST /api/acme/invitations',
      { email: 'new@acme.test', role_id: 3, route_group: 'staff' },
    ],
    ['resend', (hooks) => hooks.resend.mutateAsync(9), 'POST /api/acme/invitations/9/resend', undefined],
    ['cancel', (hooks) => hooks.cancel.mutateAsync(9), 'DELETE /api/acme/invitations/9', undefined],
  ])('%s sends its request and refreshes the list', async (_name, write, line, body) => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    let listed = 0;
    bed.server.answer('*', /\/invitations/, { status: 201, body: pending });
    bed.server.answer('GET', '/api/acme/invitations', () => ({ body: { data: Array(++listed).fill(pending) } }));
    const { result } = bed.render(() => useInvitationHooks());
    await waitFor(() => expect(result.current.list.data).toHaveLength(1));
    await act(() => write(result.current));
    expect(bed.server.writes().map((request) => [request.line, request.body])).toEqual([[line, body]]);
    await waitFor(() => expect(result.current.list.data).toHaveLength(2));
  });
});
