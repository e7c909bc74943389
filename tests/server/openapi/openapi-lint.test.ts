import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../support/data-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Warnings of Redocly's `recommended` rules that this API accepts, each for a reason of its
 * design. Anything else, and any error, fails the test.
 */
const ACCEPTED_WARNINGS: Record<string, string> = {
  // A prefix group's paths (`/api/admin/users`) and the tenant group's (`/api/{organization}/users`)
  // overlap by design: the literal segment wins, and a group's name is a reserved slug.
  'no-ambiguous-paths': 'route group prefixes beside /api/{organization}',
};

let server: TestServer;
let problems: NormalizedProblem[];

async function lint(document: TestServer): Promise<NormalizedProblem[]> {
  const { body } = await document.api.get('/api/openapi.json');
  return lintFromString({ source: JSON.stringify(body), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
}

beforeAll(async () => {
  server = await startDataServer();
  problems = await lint(server);
});
afterAll(() => server.close());

const where = (problem: NormalizedProblem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`;
const unexpected = (found: NormalizedProblem[]) => found.filter((problem) => problem.severity === 'error' || !(problem.ruleId in ACCEPTED_WARNINGS)).map(where);

describe('the OpenAPI document under redocly lint (recommended rules)', () => {
  it('has no errors', () => {
    expect(problems.filter((problem) => problem.severity === 'error').map(where)).toEqual([]);
  });

  it('warns only about what the design accepts', () => {
    expect(unexpected(problems)).toEqual([]);
  });

  it('keeps only the schemas a service uses: one without models has no audit or nested-write schemas to leave unused', async () => {
    const bare = await startTestServer();
    try {
      expect(unexpected(await lint(bare))).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('gives every operation a 4xx answer, even those that take no input', () => {
    expect(problems.filter((problem) => problem.ruleId === 'operation-4xx-response').map(where)).toEqual([]);
  });

  it('means it: the routes that take no input answer the documented 400 to a NUL character', async () => {
    for (const path of ['/api/health', '/api/ready', '/api/.well-known/paseto-public-key', '/api/public-key', '/api/openapi.json', '/api/docs']) {
      expect(await server.api.get(`${path}?q=%00`)).toMatchObject({ status: 400, body: { message: 'The request must not contain NUL characters (\\u0000).' } });
    }
  });
});
