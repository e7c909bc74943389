import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/raw-request.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// A client that sends part of a request and then nothing held its socket, and the app's wait for
// the body, for Node's default of 300 s. The timeouts here are short so the test does not wait.
let server: TestServer;
const logLines: { level: number; msg: string; path?: string }[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as (typeof logLines)[number]) });
  server = await startTestServer({ logger, keepAliveTimeoutSeconds: 0.1, headersTimeoutSeconds: 0.2, bodyTimeoutSeconds: 0.2 });
});

afterAll(() => server.close());

/** The request log's line for this path, once the app has finished with the request. */
async function loggedRequest(path: string): Promise<(typeof logLines)[number]> {
  for (;;) {
    const line = logLines.find((entry) => entry.msg === 'request' && entry.path === path);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a request that stops arriving', () => {
  it('answers 408 and closes the connection when the body stops short of its Content-Length', async () => {
    const head = 'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const answer = await rawRequest(server.api.baseUrl, `${head}{"email":"viewer@acme.test"`);
    expect(answer.status).toBe(408);
    expect(answer.head).toContain('Connection: close');
    expect(JSON.parse(answer.body)).toEqual({ message: 'The request took too long to arrive.' });
    // The app let the request go, and its log says what the client was answered.
    expect(await loggedRequest('/api/auth/login')).toMatchObject({ method: 'POST', status: 408 });
    expect(logLines.filter((line) => line.level >= 40)).toEqual([]);
    expect((await server.api.get('/api/health')).status).toBe(200);
  });

  it('answers 408 when a chunked body stalls, and when a client told to continue sends no body', async () => {
    const chunked = 'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ema\r\n';
    const continued = 'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 40\r\nExpect: 100-continue\r\n\r\n';
    const [stalled, silent] = await Promise.all([rawRequest(server.api.baseUrl, chunked), rawRequest(server.api.baseUrl, continued)]);
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toEqual({ message: 'The request took too long to arrive.' });
    // The interim 100 Continue comes first; the answer after it.
    expect(silent.head).toMatch(/^HTTP\/1\.1 100 Continue/);
    expect(silent.body).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 when the headers never end', async () => {
    const answer = await rawRequest(server.api.baseUrl, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The request took too long to arrive.' });
  });
});
