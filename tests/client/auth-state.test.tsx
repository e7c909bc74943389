// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { useAuth } from '../../client/index.js';
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
});
