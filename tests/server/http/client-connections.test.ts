import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { resolveConfig } from '../../../server/config/server-config.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// One client opening connections by the thousand held a file descriptor and memory for each, idle
// ones for the whole headers timeout, until the process could accept no other client's.
let server: TestServer;
const held: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer({ connectionsPerClient: 3 });
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await server.close();
});

/** A connection the server has accepted and left open: it answers a request on it. */
async function openConnection(): Promise<Socket> {
  const { hostname, port } = new URL(server.api.baseUrl);
  const socket = connect(Number(port), hostname);
  held.push(socket);
  socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await new Promise<void>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => (chunk.toString().startsWith('HTTP/1.1 200') ? resolve() : reject(new Error(chunk.toString()))));
    socket.once('error', reject);
  });
  return socket;
}

/** What the server writes on a new connection before it closes it, the client sending nothing. */
function refusedConnection(): Promise<string> {
  const { hostname, port } = new URL(server.api.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

describe('connections per client', () => {
  it('answers a connection past the limit 429 and closes it, and takes new ones once others close', async () => {
    const open = await Promise.all([openConnection(), openConnection(), openConnection()]);
    const refused = await refusedConnection();
    expect(refused).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(refused).toContain('Connection: close');
    expect(JSON.parse(refused.split('\r\n\r\n')[1]!)).toEqual({ message: 'Too many connections from this client: at most 3.' });
    // The connections already open keep being served.
    open[0]!.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect((await new Promise<Buffer>((resolve) => open[0]!.once('data', resolve))).toString()).toMatch(/^HTTP\/1\.1 200/);

    open[1]!.destroy();
    // The server hears of the close on its own schedule: a new connection is taken once it has.
    for (;;) {
      const answer = await rawRequest(server.api.baseUrl, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      if (answer.status === 200) break;
      expect(answer.status).toBe(429);
    }
  });

  it('defaults to 1024 a client, none behind trusted proxies, and takes a number, or false or 0 for none, from the environment', () => {
    const limit = (env: Record<string, string>) => resolveConfig(envConfig(readEnvironment(env), 'postgres://unused', server.secretKey)).connectionsPerClient;
    expect(limit({})).toBe(1024);
    expect(limit({ GATEHOUSE_TRUST_PROXY: 'true' })).toBeNull();
    expect(limit({ GATEHOUSE_TRUST_PROXY: 'true', GATEHOUSE_CONNECTIONS_PER_CLIENT: '50' })).toBe(50);
    expect(limit({ GATEHOUSE_CONNECTIONS_PER_CLIENT: 'off' })).toBeNull();
    expect(limit({ GATEHOUSE_CONNECTIONS_PER_CLIENT: '0' })).toBeNull();
    expect(() => limit({ GATEHOUSE_CONNECTIONS_PER_CLIENT: 'lots' })).toThrow('GATEHOUSE_CONNECTIONS_PER_CLIENT must be a whole number of connections, or false (0) for no limit');
  });
});
