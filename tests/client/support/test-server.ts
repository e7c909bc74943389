import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Decoded query, e.g. `{ 'filter[slug]': 'acme' }`. */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** `METHOD /path?decoded=query`, for comparing whole request lists. */
  line: string;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A function may hold its answer back (a pending promise) until the test lets it go. */
type Responder = Reply | ((request: RecordedRequest) => Reply | Promise<Reply>);

interface Route {
  method: string;
  path: string | RegExp;
  responder: Responder;
}

/** A real HTTP server that records every request and answers what the test scripted. */
export interface TestServer {
  /** `http://127.0.0.1:{port}/api`, the client's baseURL. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Scripts an answer; a later script for the same request wins. `*` matches any method. */
  answer(method: string, path: string | RegExp, responder: Responder): void;
  /** Requests whose method is not GET: queries refetch on their own, mutations never do. */
  writes(): RecordedRequest[];
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, Prefer',
  'access-control-expose-headers': 'X-Current-Page, X-Last-Page, X-Per-Page, X-Total, X-Total-Estimated, X-Next-Cursor, Preference-Applied',
};

const matches = (route: Route, request: RecordedRequest) =>
  (route.method === '*' || route.method === request.method) &&
  (typeof route.path === 'string' ? route.path === request.path : route.path.test(request.path));

function send(outgoing: ServerResponse, reply: Reply) {
  const status = reply.status ?? 200;
  const headers = { ...CORS, ...reply.headers };
  if (reply.body === undefined || status === 204) {
    outgoing.writeHead(status, headers).end();
    return;
  }
  outgoing.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
}

/**
 * Starts one server for the test file and forgets requests and scripts before each test.
 * The jsdom pages run on another origin, so the server answers CORS like a real deployment must.
 */
export function useTestServer(): TestServer {
  const requests: RecordedRequest[] = [];
  const routes: Route[] = [];
  let baseURL = '';

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      if (incoming.method === 'OPTIONS') {
        outgoing.writeHead(204, CORS).end();
        return;
      }
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const search = decodeURIComponent(url.search);
      const text = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: incoming.headers,
        body: text ? JSON.parse(text) : undefined,
        line: `${incoming.method} ${url.pathname}${search}`,
      };
      requests.push(request);
      const route = routes.findLast((candidate) => matches(candidate, request));
      const responder = route?.responder ?? { status: 404, body: { message: 'Resource not found' } };
      void Promise.resolve(typeof responder === 'function' ? responder(request) : responder).then((reply) => send(outgoing, reply));
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A page that aborted a request leaves its connection idle until the keep-alive timeout.
    server.closeAllConnections();
    return closed;
  });
  beforeEach(() => {
    requests.length = 0;
    routes.length = 0;
  });

  return {
    get baseURL() {
      return baseURL;
    },
    requests,
    answer: (method, path, responder) => routes.push({ method, path, responder }),
    writes: () => requests.filter((request) => request.method !== 'GET'),
  };
}
