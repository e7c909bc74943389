import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getEventListeners, once } from 'node:events';
import { createGatehouse, DEFAULT_MAX_CONNECTIONS, GatehouseError, GatehouseOptionError, type Gatehouse, type GatehouseOptions } from '@gatehouse/node';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyId, type PublicPaserk } from '../../server/auth/token-keys.js';
import { signedToken, urlOf } from './support.js';

// @gatehouse/node against a Gatehouse that misbehaves at the connection: cancelled calls, a
// hung server, answers cut off, idle connections closed under a request, and a stepped clock.

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

const CHECKS = [{ model: 'posts', action: 'index' }] as const;
const PERMISSIONS = { role: 'editor', permissions: ['posts.index'], abilities: { posts: { index: true } }, rules: [], organization: { id: 1, slug: 'acme' } };
const USER_ROLE = 'GET /api/acme/user-role';
const AUTHORIZE = 'POST /api/acme/authorize';
const PUBLIC_KEY = 'GET /api/public-key';
const CLOSING_SERVICE = fileURLToPath(new URL('closing-service.ts', import.meta.url));

let server: Server;
let publicKey: PublicPaserk;
let token: string;
/** Another token of the same session: not the same question as `token`, so its calls are not shared. */
let sameSession: string;
/** How the fake Gatehouse answers each `METHOD /path`; anything else is a 404. */
let answers: Record<string, Answer> = {};
/** The requests it received, as `METHOD /path`. */
let asked: string[] = [];
/** The connections opened since the test began that are still open, and the most there were at once. */
let openConnections = new Set<Socket>();
let mostConnections = 0;
const clients: Gatehouse[] = [];

const json =
  (body: unknown, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

// Requests the fake Gatehouse keeps unanswered, and a wait for the next one to arrive.
const held: ServerResponse[] = [];
let wake: (() => void) | undefined;
const hold: Answer = (_req, res) => {
  held.push(res);
  wake?.();
};
async function nextHeld(): Promise<ServerResponse> {
  while (held.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  return held.shift()!;
}

function client(options: Omit<GatehouseOptions, 'baseURL'> = {}): Gatehouse {
  const { port } = server.address() as { port: number };
  const gatehouse = createGatehouse({ baseURL: `http://127.0.0.1:${port}/api`, ...options });
  clients.push(gatehouse);
  return gatehouse;
}

beforeAll(async () => {
  ({ publicKey, token, sameSession } = await signedToken(86_400_000));
  server = createServer((req, res) => {
    const route = `${req.method} ${new URL(req.url!, 'http://gatehouse').pathname}`;
    asked.push(route);
    const answer = answers[route] ?? ((_, response) => response.writeHead(404).end('{"message":"Not found."}'));
    req.resume().on('end', () => answer(req, res));
  });
  // Kept-alive connections stay open for the whole file, so every one a client opened is counted at once.
  server.keepAliveTimeout = 600_000;
  server.on('connection', (socket: Socket) => {
    openConnections.add(socket);
    mostConnections = Math.max(mostConnections, openConnections.size);
    socket.on('close', () => openConnections.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterEach(() => {
  for (const gatehouse of clients.splice(0)) gatehouse.close();
  for (const res of held.splice(0)) res.destroy();
  answers = {};
  asked = [];
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('a call cancelled by its AbortSignal', () => {
  it('rejects with the reason, sends nothing when aborted already, frees its connection and keeps the cache and Gatehouse reachable', async () => {
    answers = { [USER_ROLE]: json(PERMISSIONS, { etag: '"1"' }), [AUTHORIZE]: hold };
    // One connection: a call that kept it after being cancelled would leave the next one waiting in vain.
    const gatehouse = client({ publicKeys: [publicKey], maxAge: 60, maxConnections: 1 });
    const kept = await gatehouse.permissions(token, 'acme');

    const reason = new Error('The service’s own caller went away.');
    await expect(gatehouse.authorize(token, 'acme', CHECKS, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(gatehouse.plans(token, 'acme', [{ model: 'posts', action: 'index' }], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(gatehouse.permissions(token, 'acme', { maxAge: 0, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(asked).toEqual([USER_ROLE]);

    const controller = new AbortController();
    const authorizing = gatehouse.authorize(token, 'acme', CHECKS, { signal: controller.signal });
    await nextHeld();
    controller.abort();
    const error = await authorizing.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: 'AbortError' });

    // A revalidation cancelled in flight: the kept answer stays, for this caller and the next.
    answers[USER_ROLE] = hold;
    const revalidation = new AbortController();
    const revalidating = gatehouse.permissions(token, 'acme', { maxAge: 0, signal: revalidation.signal });
    await nextHeld();
    revalidation.abort(reason);
    await expect(revalidating).rejects.toBe(reason);
    // Failing closed (the default) would ask, and throw, had a cancellation counted as Gatehouse away.
    const before = asked.length;
    expect(await gatehouse.permissions(token, 'acme')).toBe(kept);
    expect(asked).toHaveLength(before);

    // The only connection came free: the next call is answered, and revalidates the kept answer by its ETag.
    answers[USER_ROLE] = (req, res) => (req.headers['if-none-match'] === '"1"' ? res.writeHead(304, { etag: '"1"' }).end() : json(PERMISSIONS)(req, res));
    expect(await gatehouse.permissions(token, 'acme', { maxAge: 0 })).toBe(kept);
  });

  it('gives up waiting for the key list for the cancelled caller only', async () => {
    answers = { [PUBLIC_KEY]: hold };
    const gatehouse = client();
    const controller = new AbortController();
    const cancelled = gatehouse.verifyToken(token, { signal: controller.signal });
    const waiting = gatehouse.verifyToken(token);
    const list = await nextHeld();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    json({ keys: [{ id: keyId(publicKey), key: publicKey }] })(undefined as never, list);
    expect(await waiting).toMatchObject({ userId: 7 });
    await expect(gatehouse.verifyToken(token, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('connections to Gatehouse', () => {
  it(`opens at most maxConnections (default ${DEFAULT_MAX_CONNECTIONS}) for 100 concurrent calls: the others wait in line`, async () => {
    answers = { [AUTHORIZE]: json({ results: [{ allowed: true }] }) };
    openConnections = new Set();
    mostConnections = 0;
    const gatehouse = client();
    const results = await Promise.all(Array.from({ length: 100 }, () => gatehouse.authorize(token, 'acme', CHECKS)));
    expect(results.every(([result]) => result?.allowed === true)).toBe(true);
    expect(asked).toHaveLength(100);
    expect(mostConnections).toBe(32);
    expect(DEFAULT_MAX_CONNECTIONS).toBe(32);
  });

  it('counts the time a call waits in line against timeout.connectMs', async () => {
    answers = { [AUTHORIZE]: hold };
    const gatehouse = client({ maxConnections: 1, timeout: { connectMs: 500, responseMs: 600_000 } });
    const first = gatehouse.authorize(token, 'acme', CHECKS).catch((caught: unknown) => caught);
    await nextHeld();
    const error = await gatehouse.authorize(token, 'acme', CHECKS).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'No connection to Gatehouse came free within 500 ms (maxConnections: 1, all in use).' });
    gatehouse.close();
    expect(await first).toMatchObject({ kind: 'unavailable' });
  });

  it('says an answer was cut off, not that Gatehouse cannot be reached, and does not ask again', async () => {
    const cutOff: Answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results": [', () => res.socket!.destroy());
    };
    answers = { [AUTHORIZE]: cutOff, [USER_ROLE]: cutOff };
    const gatehouse = client({ publicKeys: [publicKey] });
    const expected = { kind: 'unavailable', status: 200, message: 'Gatehouse answered 200 but closed the connection before the whole answer arrived.' };
    await expect(gatehouse.authorize(token, 'acme', CHECKS)).rejects.toMatchObject(expected);
    await expect(gatehouse.permissions(token, 'acme')).rejects.toMatchObject(expected);
    expect(asked).toEqual([AUTHORIZE, USER_ROLE]);
  });

  it('asks a GET once more on a new connection when Gatehouse closed the kept-alive one under it, and never a POST', async () => {
    // The second request on each connection finds it closed, as when Gatehouse's idle timeout ends it just as a request goes out.
    const served = new WeakMap<Socket, number>();
    const secondDropped =
      (answer: Answer): Answer =>
      (req, res) => {
        served.set(req.socket, (served.get(req.socket) ?? 0) + 1);
        if (served.get(req.socket) === 2) return void req.socket.destroy();
        answer(req, res);
      };
    answers = { [USER_ROLE]: secondDropped(json(PERMISSIONS)), [AUTHORIZE]: secondDropped(json({ results: [{ allowed: true }] })) };
    const reading = client({ publicKeys: [publicKey], maxConnections: 1 });
    for (let call = 0; call < 2; call += 1) expect(await reading.permissions(token, 'acme')).toEqual(PERMISSIONS);
    expect(asked).toEqual([USER_ROLE, USER_ROLE, USER_ROLE]);

    asked = [];
    const writing = client({ maxConnections: 1 });
    await writing.authorize(token, 'acme', CHECKS);
    await expect(writing.authorize(token, 'acme', CHECKS)).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/^Gatehouse cannot be reached \((ECONNRESET|EPIPE)\)\.$/) });
    expect(asked).toEqual([AUTHORIZE, AUTHORIZE]);
  });
});

describe('options', () => {
  it('refuses a service name Gatehouse would refuse, or no header can carry, when the client is made, naming the option', () => {
    for (const service of ['billing\r\nX-Injected: 1', 'billing\n', 'bill\u0000ing', 'Billing', '', 'b'.repeat(64)]) {
      const error = (() => {
        try {
          return client({ service });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(GatehouseOptionError);
      expect(error).toMatchObject({ option: 'service', message: `The service option ${JSON.stringify(service)} must be lower-case letters, digits, - and _, starting with a letter, at most 63.` });
    }
    expect(() => client({ maxConnections: 0 })).toThrow(GatehouseOptionError);
    expect(client({ service: 'billing' })).toBeDefined();
    expect(client({ service: `b${'-'.repeat(62)}` })).toBeDefined();
  });

  it('refuses a baseURL no call could reach, rather than failing every call without a kind', () => {
    for (const baseURL of ['gatehouse.example.com/api', 'ftp://127.0.0.1/api', 'file:///srv/gatehouse/api']) {
      expect(() => createGatehouse({ baseURL })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'baseURL', message: `The baseURL option must be an http or https URL, such as https://gatehouse.example.com/api, not ${JSON.stringify(baseURL)}.` }));
    }
  });

  // A JavaScript caller's first try, `createGatehouse()` or the URL alone, failed with a TypeError
  // from the destructuring that named no option.
  it('refuses options that are not an object, naming the baseURL they need', () => {
    for (const [options, given] of [[undefined, 'undefined'], [null, 'null'], ['https://gatehouse.example.com/api', '"https://gatehouse.example.com/api"'], [[], 'a list'], [42, '42']] as const) {
      expect(() => createGatehouse(options as unknown as GatehouseOptions)).toThrow(
        expect.objectContaining({
          name: 'GatehouseOptionError',
          option: 'baseURL',
          message: `createGatehouse takes an object of options with at least baseURL, such as createGatehouse({ baseURL: 'https://gatehouse.example.com/api' }), not ${given}.`,
        }),
      );
    }
  });

  it('refuses publicKeys that verify no token, without echoing an entry that may be a secret key', async () => {
    const { publicKey: other } = await signedToken(60_000);
    const refusal = (publicKeys: string[]) => (() => {
      try {
        return createGatehouse({ baseURL: 'http://127.0.0.1:1/api', publicKeys });
      } catch (caught) {
        return caught;
      }
    })();
    expect(refusal([])).toMatchObject({ name: 'GatehouseOptionError', option: 'publicKeys', message: 'The publicKeys option must list at least one k4.public key; leave it out to fetch the keys from Gatehouse.' });
    const secret = `k4.secret.${'A'.repeat(86)}`;
    for (const [publicKeys, index] of [[['garbage'], 0], [[publicKey, 'k4.public.AAAA'], 1], [[other, secret], 1]] as const) {
      const error = refusal([...publicKeys]);
      expect(error).toMatchObject({ name: 'GatehouseOptionError', option: 'publicKeys', message: `Each of the publicKeys must be a PASERK k4.public key, and publicKeys[${index}] is not one.` });
    }
    expect(await client({ publicKeys: [other, publicKey] }).verifyToken(token)).toMatchObject({ userId: 7 });
  });

  it('refuses a timeout no timer can keep, which would give up on every call at once, naming the option', () => {
    for (const timeout of [{ responseMs: Infinity }, { responseMs: 2 ** 31 }, { connectMs: 0 }, { connectMs: -1 }, { connectMs: Number.NaN }, { responseMs: '5000' as unknown as number }]) {
      const [name, ms] = Object.entries(timeout)[0]!;
      expect(() => client({ timeout })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'timeout', message: `The timeout.${name} option must be a number of milliseconds from 1 to 2147483647, not ${String(ms)}.` }));
    }
    expect(client({ timeout: { connectMs: 1, responseMs: 2 ** 31 - 1 } })).toBeDefined();
  });

  // A JavaScript caller's habits from other clients (axios's `timeout: 5000`, a key from one
  // environment variable): ignored or half-read, they would wait longer or verify nothing, unsaid.
  it('refuses a timeout, publicKeys or service of the wrong type, naming the option', () => {
    const wrong = (options: Record<string, unknown>) => () => client(options as Omit<GatehouseOptions, 'baseURL'>);
    for (const timeout of [5000, null, '5000']) {
      expect(wrong({ timeout })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'timeout', message: `The timeout option must be an object of connectMs and responseMs, not ${JSON.stringify(timeout)}.` }));
    }
    expect(wrong({ timeout: { connectMs: 100, response: 100 } })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'timeout', message: 'The timeout option takes connectMs and responseMs, not response.' }));
    for (const publicKeys of [publicKey, null, { 0: publicKey }]) {
      expect(wrong({ publicKeys })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'publicKeys', message: 'The publicKeys option must be a list of k4.public keys; leave it out to fetch the keys from Gatehouse.' }));
    }
    for (const service of [null, 7]) {
      expect(wrong({ service })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'service', message: `The service option ${JSON.stringify(service)} must be lower-case letters, digits, - and _, starting with a letter, at most 63.` }));
    }
  });

  it('refuses an onUnavailable or maxAge the cache cannot follow, which would silently fail closed or keep no answer, naming the option', () => {
    for (const onUnavailable of ['cache', 'Cached', 'open', '', null, true]) {
      expect(() => client({ onUnavailable: onUnavailable as GatehouseOptions['onUnavailable'] })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'onUnavailable', message: `The onUnavailable option must be "fail" or "cached", not ${JSON.stringify(onUnavailable)}.` }));
    }
    for (const maxAge of [-1, Number.NaN, '30' as unknown as number, null as unknown as number]) {
      expect(() => client({ maxAge })).toThrow(expect.objectContaining({ name: 'GatehouseOptionError', option: 'maxAge', message: `The maxAge option must be a number of seconds of at least 0, not ${String(maxAge)}.` }));
    }
    expect(client({ onUnavailable: 'cached', maxAge: 0.5 })).toBeDefined();
    expect(client({ onUnavailable: 'fail', maxAge: 0 })).toBeDefined();
  });

  it("refuses a call's own maxAge the cache cannot follow, before asking Gatehouse", async () => {
    answers = { [PUBLIC_KEY]: json({ keys: [{ id: keyId(publicKey), key: publicKey }] }) };
    for (const maxAge of [-1, Number.NaN, '30' as unknown as number]) {
      await expect(client().permissions(token, 'acme', { maxAge })).rejects.toMatchObject({ name: 'GatehouseOptionError', option: 'maxAge', message: `The maxAge option must be a number of seconds of at least 0, not ${String(maxAge)}.` });
    }
    expect(asked).not.toContain(USER_ROLE);
  });
});

describe('a stepped wall clock', () => {
  it('neither expires nor prolongs kept answers and the key list: their ages are monotonic', async () => {
    answers = { [USER_ROLE]: json(PERMISSIONS, { etag: '"1"' }), [PUBLIC_KEY]: json({ keys: [{ id: keyId(publicKey), key: publicKey }] }) };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      const gatehouse = client({ maxAge: 60 });
      const kept = await gatehouse.permissions(token, 'acme');
      expect(asked).toEqual([PUBLIC_KEY, USER_ROLE]);
      // An hour ahead: the answer (60 s) and the key list (300 s) would both have run out.
      vi.setSystemTime(start + 3_600_000);
      expect(await gatehouse.permissions(token, 'acme')).toBe(kept);
      expect(asked).toEqual([PUBLIC_KEY, USER_ROLE]);
      await gatehouse.permissions(token, 'acme', { maxAge: 0 });
      // And back: the answer just checked would look younger than 0 s, so even `maxAge: 0` would not ask.
      vi.setSystemTime(start);
      await gatehouse.permissions(token, 'acme', { maxAge: 0 });
      expect(asked).toEqual([PUBLIC_KEY, USER_ROLE, USER_ROLE, USER_ROLE]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('races of cancellation, the connection limit and close', () => {
  it('never sends a call that left the line, cancelled or past connectMs, and goes on once Gatehouse answers again', async () => {
    answers = { [AUTHORIZE]: hold };
    const gatehouse = client({ maxConnections: 1, timeout: { connectMs: 20, responseMs: 600_000 } });
    const first = gatehouse.authorize(token, 'acme', CHECKS);
    const line = await nextHeld();
    const controller = new AbortController();
    const cancelled = gatehouse.authorize(token, 'acme', CHECKS, { signal: controller.signal });
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(cancelled).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const late = await Promise.all(Array.from({ length: 5 }, () => gatehouse.authorize(token, 'acme', CHECKS).catch((caught: unknown) => caught)));
    for (const error of late) expect(error).toMatchObject({ kind: 'timeout', message: 'No connection to Gatehouse came free within 20 ms (maxConnections: 1, all in use).' });
    json({ results: [{ allowed: true }] })(undefined as never, line);
    expect(await first).toEqual([{ allowed: true }]);
    answers[AUTHORIZE] = json({ results: [{ allowed: false }] });
    expect(await gatehouse.authorize(token, 'acme', CHECKS)).toEqual([{ allowed: false }]);
    expect(asked).toEqual([AUTHORIZE, AUTHORIZE]);
  });

  it('settles the calls in flight and in line on close(), sending none of them afterwards, and the service exits', async () => {
    answers = { [AUTHORIZE]: hold };
    const { port } = server.address() as AddressInfo;
    const env = { ...process.env, GATEHOUSE_URL: `http://127.0.0.1:${port}/api`, TOKEN: token };
    const service = spawn(process.execPath, ['--conditions=gatehouse-source', '--import', 'tsx', CLOSING_SERVICE], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      let output = '';
      service.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await nextHeld();
      service.stdin.end();
      expect(await once(service, 'exit')).toEqual([0, null]);
      expect(JSON.parse(output)).toEqual(Array(3).fill('The Gatehouse client was closed before Gatehouse answered.'));
      expect(asked).toEqual([AUTHORIZE]);
    } finally {
      service.kill();
    }
  });

  it('refuses a call made after close() without sending it', async () => {
    answers = { [USER_ROLE]: json(PERMISSIONS), [AUTHORIZE]: json({ results: [{ allowed: true }] }) };
    const gatehouse = client({ publicKeys: [publicKey] });
    gatehouse.close();
    const closed = { kind: 'unavailable', message: 'The Gatehouse client was closed before Gatehouse answered.' };
    await expect(gatehouse.permissions(token, 'acme')).rejects.toMatchObject(closed);
    await expect(gatehouse.authorize(token, 'acme', CHECKS)).rejects.toMatchObject(closed);
    expect(asked).toEqual([]);
  });

  it('settles a call cancelled as its answer arrives once, either way, and keeps its connection usable', async () => {
    const gatehouse = client({ maxConnections: 1 });
    const moments: ((abort: () => void) => void)[] = [(abort) => abort(), (abort) => process.nextTick(abort), (abort) => setImmediate(abort), (abort) => setTimeout(abort, 0)];
    for (const moment of moments) {
      for (let round = 0; round < 5; round += 1) {
        const controller = new AbortController();
        answers = { [AUTHORIZE]: (req, res) => (json({ results: [{ allowed: true }] })(req, res), moment(() => controller.abort())) };
        const outcome = await gatehouse.authorize(token, 'acme', CHECKS, { signal: controller.signal }).catch((caught: unknown) => caught);
        if (Array.isArray(outcome)) expect(outcome).toEqual([{ allowed: true }]);
        else expect(outcome).toBe(controller.signal.reason);
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      }
    }
    answers = { [AUTHORIZE]: json({ results: [{ allowed: false }] }) };
    expect(await gatehouse.authorize(token, 'acme', CHECKS)).toEqual([{ allowed: false }]);
  });

  it('leaves no listener on a signal shared by many calls, one after another or at once', async () => {
    answers = { [AUTHORIZE]: json({ results: [{ allowed: true }] }), [USER_ROLE]: json(PERMISSIONS), [PUBLIC_KEY]: json({ keys: [{ id: keyId(publicKey), key: publicKey }] }, { 'cache-control': 'max-age=0' }) };
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    try {
      const gatehouse = client();
      const { signal } = new AbortController();
      for (let call = 0; call < 1_000; call += 1) await gatehouse.permissions(token, 'acme', { signal });
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      await Promise.all(Array.from({ length: 50 }, () => gatehouse.permissions(token, 'acme', { signal })));
      await Promise.all(Array.from({ length: 50 }, () => gatehouse.authorize(token, 'acme', CHECKS, { signal })));
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);

      // Aborted with twenty calls on it, five sent and fifteen in line: each ends with its reason, and none in line is sent.
      answers[AUTHORIZE] = hold;
      const shared = new AbortController();
      const limited = client({ maxConnections: 5 });
      const calls = Array.from({ length: 20 }, () => limited.authorize(token, 'acme', CHECKS, { signal: shared.signal }).catch((caught: unknown) => caught));
      for (let sent = 0; sent < 5; sent += 1) await nextHeld();
      asked = [];
      shared.abort();
      for (const outcome of await Promise.all(calls)) expect(outcome).toBe(shared.signal.reason);
      answers[AUTHORIZE] = json({ results: [{ allowed: false }] });
      expect(await limited.authorize(token, 'acme', CHECKS)).toEqual([{ allowed: false }]);
      expect(asked).toEqual([AUTHORIZE]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
    }
  });

  it('stops fetching the key list once every caller waiting for it cancelled, and fetches it afresh for the next', async () => {
    answers = { [PUBLIC_KEY]: hold };
    const gatehouse = client({ timeout: { connectMs: 600_000, responseMs: 600_000 } });
    const controllers = [new AbortController(), new AbortController()];
    const cancelled = controllers.map(({ signal }) => gatehouse.verifyToken(token, { signal }).catch((caught: unknown) => caught));
    const list = await nextHeld();
    const closed = once(list, 'close');
    for (const controller of controllers) controller.abort();
    for (const error of await Promise.all(cancelled)) expect(error).toMatchObject({ name: 'AbortError' });
    await closed;
    answers[PUBLIC_KEY] = json({ keys: [{ id: keyId(publicKey), key: publicKey }] });
    expect(await gatehouse.verifyToken(token)).toMatchObject({ userId: 7 });
    expect(asked).toEqual([PUBLIC_KEY, PUBLIC_KEY]);
  });
});

describe('concurrent permissions calls asking the same question', () => {
  const patient = { timeout: { connectMs: 600_000, responseMs: 600_000 }, maxAge: 60 };

  it('share one GET for a token and organization within maxAge, each caller giving up by its own signal', async () => {
    answers = { [USER_ROLE]: hold };
    const gatehouse = client({ publicKeys: [publicKey], ...patient });
    const leaving = new AbortController();
    const left = gatehouse.permissions(token, 'acme', { signal: leaving.signal }).catch((caught: unknown) => caught);
    const staying = [gatehouse.permissions(token, 'acme'), gatehouse.permissions(token, 'acme', { signal: new AbortController().signal })];
    const shared = await nextHeld();
    // Another token is another question, even of the same session.
    const other = gatehouse.permissions(sameSession, 'acme');
    const otherHeld = await nextHeld();
    leaving.abort();
    expect(await left).toMatchObject({ name: 'AbortError' });
    json(PERMISSIONS)(undefined as never, shared);
    expect(await Promise.all(staying)).toEqual([PERMISSIONS, PERMISSIONS]);
    json(PERMISSIONS)(undefined as never, otherHeld);
    expect(await other).toEqual(PERMISSIONS);
    expect(asked).toEqual([USER_ROLE, USER_ROLE]);
  });

  it('each ask with maxAge 0: an answer on its way was asked for before the call', async () => {
    answers = { [USER_ROLE]: hold };
    const gatehouse = client({ publicKeys: [publicKey], ...patient, maxAge: 0 });
    const calls = [gatehouse.permissions(token, 'acme'), gatehouse.permissions(token, 'acme')];
    const held = [await nextHeld(), await nextHeld()];
    for (const response of held) json(PERMISSIONS)(undefined as never, response);
    expect(await Promise.all(calls)).toEqual([PERMISSIONS, PERMISSIONS]);
    expect(asked).toEqual([USER_ROLE, USER_ROLE]);
  });

  it('stop asking once every caller gave up, and ask afresh for the next', async () => {
    answers = { [USER_ROLE]: hold };
    const gatehouse = client({ publicKeys: [publicKey], ...patient });
    const controllers = [new AbortController(), new AbortController()];
    const cancelled = controllers.map(({ signal }) => gatehouse.permissions(token, 'acme', { signal }).catch((caught: unknown) => caught));
    const first = await nextHeld();
    // Listened for before the aborts: a caller still verifying its token (on libuv's thread pool)
    // lets the connection's close through before it rejects.
    const closed = once(first, 'close');
    for (const controller of controllers) controller.abort();
    for (const error of await Promise.all(cancelled)) expect(error).toMatchObject({ name: 'AbortError' });
    await closed;
    answers[USER_ROLE] = json(PERMISSIONS);
    expect(await gatehouse.permissions(token, 'acme')).toEqual(PERMISSIONS);
    expect(asked).toEqual([USER_ROLE, USER_ROLE]);
  });
});

/** A service of `framework` behind the client's middleware, whose `/me` calls `reached`. */
async function serviceOf(framework: 'express' | 'fastify', gatehouse: Gatehouse, reached: () => void): Promise<{ url: string; close: () => Promise<unknown> }> {
  if (framework === 'express') {
    const app = express();
    app.use(gatehouse.express());
    app.get('/me', (_req, res) => void (reached(), res.json({})));
    const listening = app.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    return { url: urlOf(listening), close: () => (listening.closeAllConnections(), new Promise((resolve) => listening.close(resolve))) };
  }
  const app = Fastify();
  app.addHook('onRequest', gatehouse.fastify());
  app.get('/me', async () => (reached(), {}));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: urlOf(app.server), close: () => app.close() };
}

describe.each(['express', 'fastify'] as const)('the %s middleware, for a request its client closes', (framework) => {
  it('stops waiting for the key list, which is no longer fetched, and lets nothing through', async () => {
    answers = { [PUBLIC_KEY]: hold };
    const gatehouse = client({ timeout: { connectMs: 600_000, responseMs: 600_000 } });
    let reached = 0;
    const service = await serviceOf(framework, gatehouse, () => (reached += 1));
    try {
      const closing = httpRequest(`${service.url}/me`, { headers: { authorization: `Bearer ${token}` } }).on('error', () => undefined);
      closing.end();
      const list = await nextHeld();
      closing.destroy();
      await once(list, 'close');
      expect(reached).toBe(0);
      // The next request fetches the list afresh and is let through.
      answers[PUBLIC_KEY] = json({ keys: [{ id: keyId(publicKey), key: publicKey }] });
      const answered = await fetch(`${service.url}/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(answered.status).toBe(200);
      expect(reached).toBe(1);
      expect(asked).toEqual([PUBLIC_KEY, PUBLIC_KEY]);
    } finally {
      await service.close();
    }
  });
});

describe.each(['express', 'fastify'] as const)('the %s middleware, for pipelined requests whose client closes the connection', (framework) => {
  it('stops waiting for the key list for each of them, the ones queued behind the first too', async () => {
    answers = { [PUBLIC_KEY]: hold };
    const gatehouse = client({ timeout: { connectMs: 600_000, responseMs: 600_000 } });
    let reached = 0;
    const service = await serviceOf(framework, gatehouse, () => (reached += 1));
    try {
      const { hostname, port } = new URL(service.url);
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {});
      await once(socket, 'connect');
      socket.write(`GET /me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`.repeat(2));
      const list = await nextHeld();
      socket.destroy();
      // Before the fix the second request, whose answer waited behind the first's, went on
      // waiting, and the list went on being fetched for it.
      await once(list, 'close');
      expect(reached).toBe(0);
    } finally {
      await service.close();
    }
  });
});

describe('permissions answers arriving out of order', () => {
  it('keeps the answer asked for last, whichever arrives last', async () => {
    const older = { ...PERMISSIONS, role: 'editor' };
    const newer = { ...PERMISSIONS, role: 'viewer', permissions: [] };
    let requests = 0;
    answers = { [USER_ROLE]: (req, res) => ((requests += 1) === 1 ? hold(req, res) : json(newer, { etag: '"2"' })(req, res)) };
    const gatehouse = client({ publicKeys: [publicKey], maxAge: 60 });
    const slow = gatehouse.permissions(token, 'acme', { maxAge: 0 });
    const first = await nextHeld();
    expect(await gatehouse.permissions(sameSession, 'acme', { maxAge: 0 })).toEqual(newer);
    json(older, { etag: '"1"' })(undefined as never, first);
    expect(await slow).toEqual(older);
    // The answer asked for first, arriving last, must not replace the one asked for after it.
    expect(await gatehouse.permissions(token, 'acme')).toEqual(newer);
    expect(requests).toBe(2);
  });
});

describe('a failure that ends after a later call was answered', () => {
  it('does not mark Gatehouse unavailable: kept answers are still used', async () => {
    let requests = 0;
    answers = { [USER_ROLE]: (req, res) => ((requests += 1) === 1 ? hold(req, res) : json(PERMISSIONS)(req, res)) };
    const gatehouse = client({ publicKeys: [publicKey], maxAge: 60 });
    const slow = gatehouse.permissions(token, 'acme', { maxAge: 0 });
    const first = await nextHeld();
    expect(await gatehouse.permissions(sameSession, 'acme', { maxAge: 0 })).toEqual(PERMISSIONS);
    first.socket!.destroy();
    await expect(slow).rejects.toMatchObject({ kind: 'unavailable' });
    // Gatehouse answered a call sent after the failed one: the answer kept from it is used, not asked again.
    expect(await gatehouse.permissions(token, 'acme')).toEqual(PERMISSIONS);
    expect(requests).toBe(2);
  });
});

describe('a GET sent once more', () => {
  // The kept-alive connection a client opened with its first call is closed under its second.
  const afterFirst =
    (then: Answer): Answer =>
    (req, res) => (asked.length === 1 ? json(PERMISSIONS)(req, res) : then(req, res));

  it('is sent once more at most, and not at all after a byte of the answer arrived', async () => {
    // Two kept-alive connections, then every request is reset: the retry goes out on the other one, and is not retried in turn.
    answers = { [USER_ROLE]: (req, res) => (asked.length <= 2 ? json(PERMISSIONS)(req, res) : req.socket.destroy()) };
    const resetting = client({ publicKeys: [publicKey] });
    await Promise.all([resetting.permissions(token, 'acme'), resetting.permissions(sameSession, 'acme')]);
    await expect(resetting.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/^Gatehouse cannot be reached \((ECONNRESET|EPIPE)\)\.$/) });
    expect(asked).toEqual([USER_ROLE, USER_ROLE, USER_ROLE, USER_ROLE]);

    asked = [];
    answers = { [USER_ROLE]: afterFirst((req) => req.socket.write('HTTP/1.1 200 OK\r\n', () => req.socket.destroy())) };
    const cutOff = client({ publicKeys: [publicKey] });
    await cutOff.permissions(token, 'acme');
    await expect(cutOff.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable' });
    expect(asked).toEqual([USER_ROLE, USER_ROLE]);
  });

  it('is due when the first one’s answer was', async () => {
    // Blocks the whole process, the client's timers included, as a busy machine might.
    const busy = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    // Most of responseMs passes before the kept-alive connection is closed under the second call,
    // and as much again before its retry is answered: past the time the call had.
    answers = { [USER_ROLE]: afterFirst((req, res) => (busy(120), asked.length === 2 ? req.socket.destroy() : json(PERMISSIONS)(req, res))) };
    const gatehouse = client({ publicKeys: [publicKey], timeout: { responseMs: 200 } });
    await gatehouse.permissions(token, 'acme');
    await expect(gatehouse.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'timeout', message: 'Gatehouse did not answer within 200 ms.' });
  });
});
