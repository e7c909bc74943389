import { request, type Agent } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, startCommand, type RunningCommand } from '../../harness/cli.js';
import { DEMO_PASSWORD } from '../../policies/seed.js';

// Without a config `serve` serves the core alone; the benchmarks' instances serve the demo's models.
const DEMO_CONFIG = fileURLToPath(new URL('../../policies/gatehouse.config.ts', import.meta.url));
/** The CLI as a checkout runs it (`npx gatehouse`), not the tests' prebuilt copy. */
const GATEHOUSE = join(ROOT, 'server', 'bin', 'gatehouse.js');

/** `gatehouse serve` of the demo application in a process of its own, once it listens. */
export async function serveDemo(env: NodeJS.ProcessEnv): Promise<{ instance: RunningCommand; url: string }> {
  const instance = startCommand(process.execPath, [GATEHOUSE, 'serve', '--config', DEMO_CONFIG], env);
  const url = /Gatehouse listening on (\S+)/.exec(await instance.waitFor(/Gatehouse listening on (\S+)/))![1]!;
  return { instance, url };
}

/** A demo user's token from a served instance. */
export async function demoToken(url: string, email: string): Promise<string> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  return ((await login.json()) as { token: string }).token;
}

/** A GET that must answer 200, its body read and thrown away. */
export function getOk(agent: Agent, url: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`GET ${url} answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}
