import { afterEach, describe, expect, it } from 'vitest';
import { lastMail } from '../support/mail.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;

afterEach(async () => {
  await server.close();
});

async function resetLink(): Promise<string> {
  expect((await server.api.post('/api/auth/password/recover', { body: { email: 'owner@acme.test' } })).status).toBe(200);
  const { body } = await lastMail(server, 'owner@acme.test');
  return /https?:\/\/\S+\/reset-password\?\S+/.exec(body)?.[0] ?? body;
}

describe('links in mails', () => {
  it('point at the URL the server actually listens on by default', async () => {
    server = await startTestServer();
    expect(server.api.baseUrl).not.toMatch(/:3000$/);
    expect(await resetLink()).toMatch(new RegExp(`^${server.api.baseUrl}/reset-password\\?token=`));
  });

  it('point at the configured public URL (GATEHOUSE_PUBLIC_URL) when set', async () => {
    server = await startTestServer({ appUrl: 'https://app.example.test/' });
    expect(await resetLink()).toMatch(/^https:\/\/app\.example\.test\/reset-password\?token=/);
  });
});
