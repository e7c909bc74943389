// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth } from '../../client/index.js';
import { renderClientHook } from '../client/support/testbed.js';
import { DEMO_PASSWORD } from '../server/support/test-server.js';
import { useLiveService } from './support/live-service.js';

// The page and the service are on different origins (jsdom's localhost:3000, the service's
// 127.0.0.1 port), so the page reads an answer only when the service allows its origin.
const listingThePage = useLiveService({ corsOrigins: [window.location.origin] });
const listingAnotherApp = useLiveService({ corsOrigins: ['https://another-app.example.test'] });

const logInAsEditor = async () => {
  const { result } = renderClientHook(() => useAuth());
  return act(() => result.current.login('editor@acme.test', DEMO_PASSWORD));
};

describe('a page on another origin than the service', () => {
  it('signs in when the service lists its origin', async () => {
    listingThePage.openPage();
    expect(await logInAsEditor()).toMatchObject({ success: true, organization_slug: 'acme' });
  });

  it('cannot read any answer when the service lists other origins only, and stores nothing', async () => {
    listingAnotherApp.openPage();
    const login = await logInAsEditor();
    expect(login).toEqual({ success: false, error: 'Network Error' });
    expect(listingAnotherApp.stored()).toEqual({});
  });
});
