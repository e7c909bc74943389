import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getHttpClient } from '../../../client/config/runtime.js';
import { useAcceptInvitation, useRegister } from '../../../client/hooks/use-auth-mutations.js';
import { useAuth } from '../../../client/hooks/use-auth.js';
import { useModelStore } from '../../../client/hooks/use-model-mutations.js';
import { useModelIndex } from '../../../client/hooks/use-model-queries.js';
import { useUserRole } from '../../../client/hooks/use-user-role.js';
import type { ApiOptions } from '../../../client/config/api-config.js';
import { messageOf } from './message-of.js';
import type { StoredSession, TestPlatform } from './platforms.js';
import type { Reply } from './test-server.js';
import { failedQuery, useTestbed } from './testbed.js';

const user = { id: 1, name: 'Ann' };
const userJson = JSON.stringify(user);
const signedIn: StoredSession = { token: 'old-token', user: userJson, organization_slug: 'acme', route_group: 'staff' };
const registration = { token: 'invite', name: 'Ann', email: 'ann@acme.test', password: 'pw', password_confirmation: 'pw' };
const notMember = { message: 'You are not a member of this group' };

function useSessionHooks() {
  return { auth: useAuth(), register: useRegister(), accept: useAcceptInvitation(), store: useModelStore('posts') };
}

type SessionHooks = ReturnType<typeof useSessionHooks>;

interface Row {
  name: string;
  stored: StoredSession;
  api?: ApiOptions;
  answers: [method: string, path: string, reply: Reply][];
  run(hooks: SessionHooks, call: Call): Promise<unknown>;
  /** Compared with toEqual where given. */
  result?: unknown;
  /** Storage afterwards; also what storage held whenever onUnauthorized ran, the provider already reset. */
  storedAfter: StoredSession;
  authenticated: boolean;
  unauthorized: number;
  /** The message of each onForbidden call. */
  forbidden: string[];
  request?: { line: string; body?: unknown; authorization?: string };
}

/**
 * Runs a hook call in act and settles it either way, keeping the error as the result; the runner
 * notes what storage held at the very moment the call settled.
 */
type Call = (hookCall: () => Promise<unknown>) => Promise<unknown>;

/** The contract's table "States and transitions", row by row. */
const stateRows: Row[] = [
  {
    name: 'login accepted: token, user and organization stored before login resolves',
    stored: {},
    answers: [
      ['POST', '/api/auth/login', { body: { token: 'new-token', user, organization: { slug: 'acme' }, organization_slug: 'acme', route_group: null } }],
    ],
    run: ({ auth }, call) => call(() => auth.login('ann@acme.test', 'secret')),
    result: { success: true, token: 'new-token', user, organization: { slug: 'acme' }, organization_slug: 'acme', route_group: null },
    storedAfter: { token: 'new-token', user: userJson, organization_slug: 'acme' },
    authenticated: true,
    unauthorized: 0,
    forbidden: [],
    request: { line: 'POST /api/auth/login', body: { email: 'ann@acme.test', password: 'secret' } },
  },
  {
    name: 'login accepted in a group: the echoed route group is persisted',
    stored: {},
    api: { routeGroup: 'staff' },
    answers: [['POST', '/api/staff/auth/login', { body: { token: 'new-token', user, organization: null, organization_slug: null, route_group: 'staff' } }]],
    run: ({ auth }, call) => call(() => auth.login('ann@acme.test', 'secret')),
    result: { success: true, token: 'new-token', user, organization: undefined, organization_slug: undefined, route_group: 'staff' },
    storedAfter: { token: 'new-token', user: userJson, route_group: 'staff' },
    authenticated: true,
    unauthorized: 0,
    forbidden: [],
  },
  {
    name: 'login rejected with 401: nothing cleared, onUnauthorized not run',
    stored: { organization_slug: 'acme', route_group: 'staff' },
    answers: [['POST', '/api/staff/auth/login', { status: 401, body: { message: 'Invalid credentials' } }]],
    run: ({ auth }, call) => call(() => auth.login('ann@acme.test', 'wrong')),
    result: { success: false, status: 401, error: 'Invalid credentials' },
    storedAfter: { organization_slug: 'acme', route_group: 'staff' },
    authenticated: false,
    unauthorized: 0,
    forbidden: [],
  },
  {
    name: 'login denied with 403: the result carries 403 and onForbidden runs',
    stored: {},
    answers: [['POST', '/api/auth/login', { status: 403, body: notMember }]],
    run: ({ auth }, call) => call(() => auth.login('ann@acme.test', 'secret')),
    result: { success: false, status: 403, error: notMember.message },
    storedAfter: {},
    authenticated: false,
    unauthorized: 0,
    forbidden: [notMember.message],
  },
  {
    name: 'register answered with a token: the session starts before the mutation resolves',
    stored: {},
    answers: [
      ['POST', '/api/auth/register', { status: 201, body: { token: 'new-token', user, organization: { slug: 'acme' }, organization_slug: 'acme', route_group: 'staff' } }],
    ],
    run: ({ register }, call) => call(() => register.mutateAsync(registration)),
    result: { token: 'new-token', user, organization: { slug: 'acme' }, organization_slug: 'acme', route_group: 'staff' },
    storedAfter: { token: 'new-token', user: userJson, organization_slug: 'acme', route_group: 'staff' },
    authenticated: true,
    unauthorized: 0,
    forbidden: [],
    request: { line: 'POST /api/auth/register', body: registration },
  },
  {
    name: 'register answered without a token: the session is untouched, the mutation resolves to the answer',
    stored: { organization_slug: 'globex' },
    answers: [['POST', '/api/auth/register', { status: 201, body: { user, organization: { slug: 'acme' } } }]],
    run: ({ register }, call) => call(() => register.mutateAsync(registration)),
    result: { user, organization: { slug: 'acme' } },
    storedAfter: { organization_slug: 'globex' },
    authenticated: false,
    unauthorized: 0,
    forbidden: [],
  },
  ...[
    { answer: { body: { message: 'Logged out' } }, why: 'answered' },
    { answer: { status: 500, body: { message: 'Server Error' } }, why: 'failing' },
    { answer: { status: 401, body: { message: 'Unauthenticated.' } }, why: 'rejecting the token' },
  ].map(
    ({ answer, why }): Row => ({
      name: `logout, server ${why}: everything cleared, no navigation`,
      stored: signedIn,
      answers: [['POST', '/api/staff/auth/logout', answer]],
      run: ({ auth }, call) => call(() => auth.logout()),
      storedAfter: {},
      authenticated: false,
      unauthorized: 0,
      forbidden: [],
      request: { line: 'POST /api/staff/auth/logout', authorization: 'Bearer old-token' },
    }),
  ),
  {
    name: 'a request answered 401: token and user removed, then onUnauthorized',
    stored: signedIn,
    answers: [['POST', '/api/acme/posts', { status: 401, body: { message: 'Unauthenticated.' } }]],
    run: async ({ store }, call) => messageOf(await call(() => store.mutateAsync({ title: 'x' }))),
    result: 'Unauthenticated.',
    storedAfter: { organization_slug: 'acme', route_group: 'staff' },
    authenticated: false,
    unauthorized: 1,
    forbidden: [],
  },
  {
    name: 'a request answered 403 for a foreign group: token kept, onForbidden runs',
    stored: signedIn,
    answers: [['POST', '/api/acme/posts', { status: 403, body: notMember }]],
    run: async ({ store }, call) => messageOf(await call(() => store.mutateAsync({ title: 'x' }))),
    result: notMember.message,
    storedAfter: signedIn,
    authenticated: true,
    unauthorized: 0,
    forbidden: [notMember.message],
  },
  {
    name: 'accepting an invitation starts no session',
    stored: {},
    answers: [['POST', '/api/invitations/accept', { body: { message: 'Invitation accepted', invitation: { id: 9 }, organization: { slug: 'acme' } } }]],
    run: ({ accept }, call) => call(() => accept.mutateAsync({ token: 'invite' })),
    result: { message: 'Invitation accepted', invitation: { id: 9 }, organization: { slug: 'acme' } },
    storedAfter: {},
    authenticated: false,
    unauthorized: 0,
    forbidden: [],
    request: { line: 'POST /api/invitations/accept', body: { token: 'invite' } },
  },
];

const forbiddenField = { message: 'You are not allowed to set the following field(s): internal_notes, author_id' };
const forbiddenInclude = { message: 'You do not have permission to include comments.author.' };

/** The contract's table "Errors", row by row. */
const errorRows: Row[] = [
  {
    name: '401 on a query: session ended once, not once per retry',
    stored: signedIn,
    answers: [['GET', '/api/acme/posts', { status: 401, body: { message: 'Unauthenticated.' } }]],
    run: async () => messageOf(await failedQuery(() => useModelIndex('posts'))),
    result: 'Unauthenticated.',
    storedAfter: { organization_slug: 'acme', route_group: 'staff' },
    authenticated: false,
    unauthorized: 1,
    forbidden: [],
  },
  ...[
    { group: null, path: '/api/auth/login' },
    { group: 'staff', path: '/api/staff/auth/login' },
  ].map(
    ({ group, path }): Row => ({
      name: `401 on the login path ${path}: nothing cleared`,
      stored: { organization_slug: 'acme' },
      answers: [['POST', path, { status: 401, body: { message: 'Invalid credentials' } }]],
      run: ({ auth }, call) => call(() => auth.login('ann@acme.test', 'wrong', { routeGroup: group })),
      result: { success: false, status: 401, error: 'Invalid credentials' },
      storedAfter: { organization_slug: 'acme' },
      authenticated: false,
      unauthorized: 0,
      forbidden: [],
    }),
  ),
  {
    name: '403 on a tenant request: token kept, the message reaches onForbidden',
    stored: signedIn,
    answers: [['GET', '/api/acme/user-role', { status: 403, body: notMember }]],
    run: async () => messageOf(await failedQuery(useUserRole)),
    result: notMember.message,
    storedAfter: signedIn,
    authenticated: true,
    unauthorized: 0,
    forbidden: [notMember.message],
  },
  {
    name: '403 for a field outside the write list: the message names the fields',
    stored: signedIn,
    answers: [['POST', '/api/acme/posts', { status: 403, body: forbiddenField }]],
    run: async ({ store }, call) => messageOf(await call(() => store.mutateAsync({ internal_notes: 'n', author_id: 2 }))),
    result: forbiddenField.message,
    storedAfter: signedIn,
    authenticated: true,
    unauthorized: 0,
    forbidden: [forbiddenField.message],
  },
  {
    name: 'include rejected: the query fails with the message, the session stays',
    stored: signedIn,
    answers: [['GET', '/api/acme/posts', { status: 403, body: forbiddenInclude }]],
    run: async () => messageOf(await failedQuery(() => useModelIndex('posts', { include: 'comments.author' }))),
    result: forbiddenInclude.message,
    storedAfter: signedIn,
    authenticated: true,
    unauthorized: 0,
    forbidden: [forbiddenInclude.message],
  },
];

/** Runs both tables against one platform's storage and events. */
export function describeContractTables(platform: TestPlatform): void {
  const bed = useTestbed(platform);

  const check = async (row: Row) => {
    const { onUnauthorized, onForbidden } = bed.start({ stored: row.stored, api: row.api });
    // What storage held, and whether the provider still said signed in, whenever onUnauthorized ran.
    const whenUnauthorized: { stored: StoredSession; authenticated: boolean }[] = [];
    onUnauthorized.mockImplementation(() =>
      whenUnauthorized.push({ stored: platform.stored(), authenticated: result.current.auth.isAuthenticated }),
    );
    for (const [method, path, reply] of row.answers) bed.server.answer(method, path, reply);
    const { result } = bed.render(useSessionHooks);
    await waitFor(() => expect(result.current.auth.isReady).toBe(true));

    let storedWhenSettled: StoredSession | undefined;
    const settled = (value: unknown) => {
      storedWhenSettled = platform.stored();
      return value;
    };
    const call: Call = (hookCall) => act(() => hookCall().then(settled, settled));
    const returned = await row.run(result.current, call);

    if ('result' in row) expect(returned).toEqual(row.result);
    expect(platform.stored()).toEqual(row.storedAfter);
    if (storedWhenSettled) expect(storedWhenSettled).toEqual(row.storedAfter);
    await waitFor(() => expect(result.current.auth.isAuthenticated).toBe(row.authenticated));
    expect(result.current.auth.token).toBe(row.authenticated ? (row.storedAfter.token ?? null) : null);
    expect(onUnauthorized).toHaveBeenCalledTimes(row.unauthorized);
    expect(whenUnauthorized).toEqual(Array(row.unauthorized).fill({ stored: row.storedAfter, authenticated: false }));
    expect(onForbidden.mock.calls.map(([error]) => messageOf(error))).toEqual(row.forbidden);
    if (row.request) {
      const sent = bed.server.requests.find((request) => request.line === row.request?.line);
      expect(sent?.body).toEqual(row.request.body);
      expect(sent?.headers.authorization).toBe(row.request.authorization);
    }
  };

  describe(`${platform.name}: states and transitions`, () => {
    it.each(stateRows)('$name', check);

    it('authenticates a request issued right after login resolves', async () => {
      bed.start();
      bed.server.answer('POST', '/api/auth/login', { body: { token: 'new-token', user, organization: null } });
      bed.server.answer('GET', '/api/ping', { body: {} });
      const { result } = bed.render(useAuth);
      await act(async () => {
        await result.current.login('ann@acme.test', 'secret');
        await getHttpClient().get('/ping');
      });
      expect(bed.server.requests.at(-1)?.headers.authorization).toBe('Bearer new-token');
    });
  });

  describe(`${platform.name}: errors`, () => {
    it.each(errorRows)('$name', check);
  });
}
