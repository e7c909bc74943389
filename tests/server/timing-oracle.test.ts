import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { separability } from './support/separability.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './support/test-server.js';

// Known and unknown emails must not be told apart by how long the answer takes. Each endpoint is
// asked for a known and an unknown email in a shuffled order from a separate process; the test
// fails when one latency cut-off sorts the two samples apart better than SEPARABLE. Before
// recover answered ahead of its work, one cut-off sorted 98% of them.
const ROUNDS = 40;
const SEPARABLE = 0.75;
const CLIENT = join(dirname(fileURLToPath(import.meta.url)), 'support', 'time-requests.ts');

let server: TestServer;

beforeAll(async () => {
  // Limits out of the way: what is timed here is the work behind the answer.
  const open = { maxAttempts: 1_000_000, decaySeconds: 60 };
  const limits = { email: open, address: open };
  server = await startTestServer({ throttle: { login: limits, register: limits, passwordRecover: limits, passwordReset: limits } });
});

afterAll(() => server.close());

function timeRequests(path: string, bodies: Record<'known' | 'unknown', unknown>): Promise<Record<'known' | 'unknown', number[]>> {
  const plan = { baseUrl: server.api.baseUrl, path, bodies, rounds: ROUNDS, warmup: 5, pauseMs: 15 };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CLIENT, JSON.stringify(plan)], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function expectInseparable(path: string, body: (email: string) => Record<string, unknown>, statuses: number[]): Promise<void> {
  const known = body('viewer@acme.test');
  const unknown = body('nobody@acme.test');
  for (const [email, sample] of [['known', known], ['unknown', unknown]] as const) {
    expect(statuses, email).toContain((await server.api.post(path, { body: sample })).status);
  }
  const times = await timeRequests(path, { known, unknown });
  const score = separability(times.known, times.unknown);
  const summary = `${path}: median ${median(times.known).toFixed(2)} ms known, ${median(times.unknown).toFixed(2)} ms unknown, best cut-off sorts ${(score * 100).toFixed(0)}%`;
  expect(score, summary).toBeLessThanOrEqual(SEPARABLE);
}

describe('the separability measure', () => {
  // A fixed pseudo-random sequence: the check of the measure itself must not be flaky.
  const noise = (seed: number) => Array.from({ length: ROUNDS }, (_, index) => ((Math.sin(seed * 1000 + index) * 10_000) % 1 + 1) % 1);

  it('tells apart samples that differ and not samples that do not', () => {
    expect(separability(noise(1), noise(2))).toBeLessThan(SEPARABLE);
    expect(separability(noise(1), noise(2).map((value) => value + 0.9))).toBeGreaterThan(0.9);
    expect(separability([1, 2, 3], [4, 5, 6])).toBe(1);
    expect(separability([4, 5, 6], [1, 2, 3])).toBe(1);
  });
});

describe('no timing oracle for known emails', () => {
  it('password recover answers known and unknown emails in the same time', async () => {
    await expectInseparable('/api/auth/password/recover', (email) => ({ email }), [200]);
  });

  it('login answers a wrong password for a known email as fast as an unknown email', async () => {
    await expectInseparable('/api/auth/login', (email) => ({ email, password: `not ${DEMO_PASSWORD}` }), [401]);
  });

  it('register answers a known and an unknown email alike for an invitation it cannot find', async () => {
    await expectInseparable(
      '/api/auth/register',
      (email) => ({ token: 'no-such-invitation', name: 'Somebody', email, password: 'a long password', password_confirmation: 'a long password' }),
      [404],
    );
  });
});
