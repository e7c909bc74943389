import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementCache } from '../../../server/db/statements/statement-cache.js';
import { compilations } from '../../../server/permissions/compiled-permissions.js';
import { postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35: "conditions are compiled once per role and permission set, not per request". The
// contributor's conditioned permissions (posts.index:visible, posts.show:visible, ...) are
// compiled into rules and plans once and kept; the SQL they add to a statement once per shape,
// whoever the caller.

let server: TestServer;

beforeAll(async () => {
  server = await startDataServer();
});

afterAll(() => server.close());

/** What was compiled rather than found: abilities, their plans, and statements. */
const compiled = () => ({ ...compilations(), statements: statementCache.compilations });

/** A second member of acme with the contributor's role (and password), whose facts differ. */
async function secondContributor(): Promise<string> {
  await server.sql(
    `WITH added AS (INSERT INTO users (name, email, password_hash) SELECT 'Second Contributor', 'contributor-2@acme.test', password_hash FROM users WHERE email = 'contributor@acme.test' RETURNING id)
     INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
     SELECT added.id, organization_id, role_id, route_group FROM added, user_roles WHERE user_roles.user_id = (SELECT id FROM users WHERE email = 'contributor@acme.test')`,
  );
  return server.login('contributor-2@acme.test');
}

describe('record conditions', () => {
  it('are compiled once per permission set and caller, and their SQL once for every member of the role', async () => {
    const contributor = await server.login('contributor@acme.test');
    const published = await postId(server, 'Welcome to Acme');
    const requests = (token: string) => [server.api.get('/api/acme/posts', { token }), server.api.get(`/api/acme/posts/${published}`, { token })];
    const statuses = async (token: string) => (await Promise.all(requests(token))).map((response) => response.status);

    expect(await statuses(contributor)).toEqual([200, 200]);
    const warm = compiled();
    for (let round = 0; round < 10; round += 1) expect(await statuses(contributor)).toEqual([200, 200]);
    // Asked for once per request: the opening, which plans its statements' conditions, and the
    // stage loading the permissions share what one of them found.
    expect(compiled()).toEqual({ ...warm, asked: warm.asked + 20 });

    const second = await secondContributor();
    const signedIn = compiled();
    expect(await statuses(second)).toEqual([200, 200]);
    const afterSecond = compiled();
    // Its own user id fills `own` and `visible`: one set of rules and plans of its own...
    expect(afterSecond.abilities - signedIn.abilities).toBe(1);
    expect(afterSecond.plans).toBeGreaterThan(signedIn.plans);
    // ...and the very statements the first contributor's requests compiled, its id a bound value.
    expect(afterSecond.statements).toBe(signedIn.statements);
    for (let round = 0; round < 10; round += 1) expect(await statuses(second)).toEqual([200, 200]);
    expect(compiled()).toEqual({ ...afterSecond, asked: afterSecond.asked + 20 });
  });
});
