import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { DEMO_PASSWORD, DEMO_ROLES } from '../../policies/seed.js';
import { runCli, startCli } from '../../harness/cli.js';
import { Api } from '../server/support/http-client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

// Each command is a Node process loading the demo's TypeScript config: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

// In a checkout, with no --config and no config file in the working directory, every command that
// reads the application config reads the demo's, which `npm start` serves there: serve, org
// create and resources too, not the core alone (tests/cli/cli.test.ts: migrate).
let db: TestDatabase;
const gatehouse = (...args: string[]) => runCli(args, db.ownerUrl);

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(() => db.drop());

describe('commands without --config in a checkout', () => {
  it('serve serves the demo, as npm start does', async () => {
    const { secretKey } = await generateTokenKeyPair();
    const env = { DATABASE_URL: db.ownerUrl, GATEHOUSE_ALLOW_OWNER_CONNECTION: 'true', GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0', HOST: '127.0.0.1' };
    const serving = startCli(['serve'], env);
    try {
      const api = new Api(/listening on (http:\/\/\S+)/.exec(await serving.waitFor(/listening on http:\/\/\S+/))![1]!);
      const login = await api.post('/api/auth/login', { body: { email: 'viewer@acme.test', password: DEMO_PASSWORD } });
      expect(login.status).toBe(200);
      expect((await api.get('/api/acme/posts', { token: login.body.token as string })).status).toBe(200);
    } finally {
      serving.child.kill('SIGTERM');
      await serving.exited;
    }
  });

  it("org create gives the demo's starting roles; resources keeps the demo's models to themselves", async () => {
    expect(await gatehouse('org', 'create', '--name', 'Initech', '--slug', 'initech')).toEqual({ code: 0, stdout: expect.stringMatching(/^Created organization initech /), stderr: '' });
    const roles = await queryOnce<{ slug: string }>(
      db.ownerUrl,
      "SELECT r.slug FROM org_role_permissions p JOIN roles r ON r.id = p.role_id JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'initech' ORDER BY r.slug",
    );
    expect(roles.map((role) => role.slug)).toEqual(DEMO_ROLES.map((role) => role.slug).sort());
    expect(await gatehouse('resources', 'register', 'billing', 'posts', '--actions', 'index')).toEqual({ code: 1, stdout: '', stderr: 'posts is a model of this service.\n' });
  });
});
