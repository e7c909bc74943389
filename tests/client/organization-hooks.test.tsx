// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  AuthProvider,
  Can,
  useAbility,
  useOrganizationExists,
  useOwner,
  useUserRole,
  type ModelAction,
} from '../../client/index.js';
import { compileAbility, effectivePermissions, packAbilityRules } from '@gatehouse/engine';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);
const start = () => bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });

const acme = {
  id: 1,
  name: 'Acme',
  slug: 'acme',
  users: [{ id: 2, name: 'Ed', pivot: { role_id: 3 } }],
  roles: [{ id: 3, name: 'editor' }],
};

describe('useOwner', () => {
  it.each([
    ['the selected organization', {}, '/api/acme/organizations', { 'filter[slug]': 'acme' }],
    [
      'with its relations',
      { includes: ['users', 'roles'] },
      '/api/acme/organizations',
      { 'filter[slug]': 'acme', include: 'users,roles' },
    ],
    ['another organization by slug', { slug: 'globex' }, '/api/globex/organizations', { 'filter[slug]': 'globex' }],
  ])('fetches %s and returns the first listed', async (_name, options, path, query) => {
    start();
    bed.server.answer('GET', path, { body: { data: [acme] } });
    const { result } = bed.render(() => useOwner(options));
    await waitFor(() => expect(result.current.data).toEqual(acme));
    expect(bed.server.requests.map((request) => [request.path, request.query])).toEqual([[path, query]]);
  });

  it('returns null when the server lists none', async () => {
    start();
    bed.server.answer('GET', '/api/acme/organizations', { body: { data: [] } });
    const { result } = bed.render(() => useOwner());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
  });
});

describe('useOrganizationExists', () => {
  it('asks only for the slug typing settled on', async () => {
    start();
    bed.server.answer('GET', '/api/acme-labs/organizations/exists', { body: { exists: true, organization: null } });
    const { result, rerender } = bed.render((slug: string) => useOrganizationExists(slug), { initialProps: '' });
    for (const typed of ['a', 'ac', 'acme', 'acme-', 'acme-labs']) rerender(typed);
    expect(result.current).toEqual({ exists: false, isLoading: true, organization: null });
    await waitFor(() => expect(result.current).toEqual({ exists: true, isLoading: false, organization: null }));
    expect(bed.server.requests.map((request) => request.line)).toEqual(['GET /api/acme-labs/organizations/exists']);
  });

  it.each([
    ['a free slug', { exists: false }, { exists: false, isLoading: false, organization: null }],
    ['a slug of an organization the caller belongs to', { exists: true, organization: acme }, { exists: true, isLoading: false, organization: acme }],
  ])('reports %s', async (_name, body, expected) => {
    start();
    bed.server.answer('GET', '/api/acme/organizations/exists', { body });
    const { result } = bed.render(() => useOrganizationExists('acme'));
    await waitFor(() => expect(result.current).toEqual(expected));
  });

  it('checks the selected organization when given no slug', async () => {
    start();
    bed.server.answer('GET', '/api/acme/organizations/exists', { body: { exists: true, organization: acme } });
    const { result } = bed.render(() => useOrganizationExists());
    await waitFor(() => expect(result.current).toEqual({ exists: true, isLoading: false, organization: acme }));
  });
});

// Rules packed by the server's engine, exactly as GET {t}/user-role sends them.
const packedRules = (role: string[], denied: string[] = []) =>
  packAbilityRules(compileAbility(effectivePermissions({ role, denied })));
const editorRules = packedRules(['posts.index', 'posts.update', 'posts.forceDelete', 'comments.*'], ['posts.forceDelete']);
const superadminRules = packedRules(['*']);

describe('useUserRole, useAbility and Can', () => {
  it('returns the role with its permissions', async () => {
    start();
    const role = { role: 'editor', permissions: ['posts.index', 'posts.update', 'comments.*'], rules: editorRules };
    bed.server.answer('GET', '/api/acme/user-role', { body: role });
    const { result } = bed.render(useUserRole);
    await waitFor(() => expect(result.current.data).toEqual(role));
  });

  it.each<[string, unknown, [ModelAction, string, boolean][]]>([
    [
      'an editor',
      editorRules,
      [
        ['index', 'posts', true],
        ['update', 'posts', true],
        ['destroy', 'posts', false],
        ['forceDelete', 'posts', false],
        ['destroy', 'comments', true],
        ['index', 'users', false],
      ],
    ],
    ['a superadmin', superadminRules, [['forceDelete', 'posts', true], ['index', 'users', true]]],
  ])('rebuilds the ability of %s from the packed rules', async (_name, rules, checks) => {
    start();
    bed.server.answer('GET', '/api/acme/user-role', { body: { role: 'r', permissions: [], rules } });
    const { result } = bed.render(() => ({ role: useUserRole(), ability: useAbility() }));
    expect(result.current.ability.can('index', 'posts')).toBe(false);
    await waitFor(() => expect(result.current.role.isSuccess).toBe(true));
    expect(checks.map(([action, slug]) => [action, slug, result.current.ability.can(action, slug)])).toEqual(checks);
  });

  it('Can renders the children when allowed and the fallback otherwise', async () => {
    start();
    bed.server.answer('GET', '/api/acme/user-role', { body: { role: 'editor', permissions: [], rules: editorRules } });
    render(
      <AuthProvider>
        <Can I="update" a="posts">
          <p>edit post</p>
        </Can>
        <Can I="forceDelete" a="posts" fallback={<p>no purge</p>}>
          <p>purge post</p>
        </Can>
      </AuthProvider>,
    );
    expect(await screen.findByText('edit post')).toBeTruthy();
    expect(screen.getByText('no purge')).toBeTruthy();
    expect(screen.queryByText('purge post')).toBeNull();
  });
});
