import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth } from '../../../client/hooks/use-auth.js';
import type { AuthState } from '../../../client/react/gatehouse-context.js';
import { useOrganization, useRouteGroup } from '../../../client/hooks/use-session-scope.js';
import type { TestPlatform } from './platforms.js';
import { useTestbed } from './testbed.js';

/** Two component trees of one app: a change made through one re-renders the other. */
export function describeInAppSync(platform: TestPlatform): void {
  const bed = useTestbed(platform);

  describe(`${platform.name}: session changes reach every reader`, () => {
    it.each([
      ['organization', (auth: AuthState) => auth.setOrganization('globex'), { organization: 'globex', group: 'staff' }],
      ['organization cleared', (auth: AuthState) => auth.setOrganization(null), { organization: null, group: 'staff' }],
      ['route group', (auth: AuthState) => auth.setRouteGroup('partners'), { organization: 'acme', group: 'partners' }],
      ['route group cleared', (auth: AuthState) => auth.setRouteGroup(null), { organization: 'acme', group: null }],
    ])('%s', async (_name, change, expected) => {
      bed.start({ stored: { organization_slug: 'acme', route_group: 'staff' } });
      const writer = bed.render(useAuth);
      const reader = bed.render(() => ({ organization: useOrganization(), group: useRouteGroup() }));
      await waitFor(() => expect(reader.result.current).toEqual({ organization: 'acme', group: 'staff' }));
      await act(() => change(writer.result.current));
      expect(reader.result.current).toEqual(expected);
    });

    it('a setter changes every reader before it returns, and storage before its promise resolves', async () => {
      bed.start({ stored: { organization_slug: 'acme', route_group: 'staff' } });
      const writer = bed.render(useAuth);
      const reader = bed.render(() => ({ organization: useOrganization(), group: useRouteGroup() }));
      await waitFor(() => expect(reader.result.current).toEqual({ organization: 'acme', group: 'staff' }));
      let persisted: Promise<unknown> = Promise.resolve();
      // The contract types the setters as returning void: their effect cannot wait for an await.
      act(() => {
        persisted = Promise.all([writer.result.current.setOrganization('globex'), writer.result.current.setRouteGroup(null)]);
      });
      expect(reader.result.current).toEqual({ organization: 'globex', group: null });
      await act(() => persisted);
      expect(platform.stored()).toEqual({ organization_slug: 'globex' });
    });
  });
}
