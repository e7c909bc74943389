// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { useAuth, useOrganization, useRouteGroup } from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

describe('useAuth reading storage', () => {
  it.each([
    ['a stored user', '{"id":1,"name":"Ann"}', { id: 1, name: 'Ann' }],
    ['something else stored under "user"', 'Ann', null],
  ])('reads %s', (_name, stored, user) => {
    bed.start({ stored: { token: 'tok', user: stored } });
    const { result } = bed.render(useAuth);
    expect(result.current).toMatchObject({ token: 'tok', isAuthenticated: true, isReady: true, user });
  });

  it('reads empty stored values as absent: no session, no organization, no group', () => {
    bed.start({ stored: { token: '', user: '{"id":1}', organization_slug: '', route_group: '' } });
    const { result } = bed.render(() => ({ auth: useAuth(), organization: useOrganization(), group: useRouteGroup() }));
    expect(result.current.auth).toMatchObject({ token: null, isAuthenticated: false });
    expect(result.current).toMatchObject({ organization: null, group: null });
  });
});
