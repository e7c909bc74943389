import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SERVICE_HEADER } from '@gatehouse/engine/wire';
import { notTheAnswer, type ExpectedAnswer } from './answer-shapes.js';
import { GatehouseError, isUnavailable, kindOfStatus, UnauthenticatedError } from './errors.js';

export interface JsonResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** The checked answer; `null` on a 304, where the kept answer stands. */
  body: T;
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: unknown;
  ifNoneMatch?: string;
}

/** How long a call waits for Gatehouse, in milliseconds. */
export interface Timeouts {
  /** For the TCP connection to open, when no kept-alive one is free; default 2,000. */
  connectMs?: number;
  /** From the request being sent to the whole answer having arrived; default 5,000. */
  responseMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<Timeouts> = { connectMs: 2_000, responseMs: 5_000 };

// Gatehouse's largest answers (a hundred plans, a role's packed rules) stay far below this; a
// body past it is not one of them, and held whole it could exhaust the service's memory (past
// 512 MiB, Node cannot even make it a string and the process crashed).
const MAX_ANSWER_MIB = 10;
const MAX_ANSWER_BYTES = MAX_ANSWER_MIB * 1024 * 1024;

// A PASETO token is printable ASCII; anything else cannot be sent as a header, nor be genuine.
const SENDABLE_TOKEN = /^[!-~]+$/;

/**
 * JSON over one keep-alive agent per client: every call to Gatehouse reuses open connections
 * instead of paying for a TCP (and TLS) handshake each time. Every call gives up after its
 * timeouts, and the client remembers whether the last call reached Gatehouse.
 */
export class HttpClient {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly timeouts: Required<Timeouts>;
  /** Sent with every call: the asking service's name (`X-Gatehouse-Service`), when it gave one. */
  private readonly sentHeaders: Readonly<Record<string, string>>;
  /** Whether the last call found Gatehouse unreachable, slow or failing (`unavailable`, `timeout`). */
  unavailable = false;

  constructor(baseURL: string, timeouts: Timeouts = {}, service?: string) {
    this.base = new URL(baseURL.endsWith('/') ? baseURL : `${baseURL}/`);
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...timeouts };
    this.sentHeaders = service === undefined ? {} : { [SERVICE_HEADER]: service };
  }

  private send({ method, path, token, body, ifNoneMatch }: JsonRequest): Promise<JsonResponse> {
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { ...this.sentHeaders, accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const { connectMs, responseMs } = this.timeouts;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const giveUp = (ms: number, what: string) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          reject(new GatehouseError('timeout', `Gatehouse did not ${what} within ${ms} ms.`));
          req.destroy();
        }, ms);
      };
      const settle = <T>(then: (value: T) => void) => (value: T) => {
        clearTimeout(timer);
        then(value);
      };
      const fail = (error: Error) => settle(reject)(error instanceof GatehouseError ? error : unreachable(error));
      const req = request(url, { method, headers, agent: this.agent }, (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          chunks.push(chunk);
          if (received <= MAX_ANSWER_BYTES) return;
          fail(new GatehouseError('unavailable', `Gatehouse answered ${status} with more than ${MAX_ANSWER_MIB} MiB.`, status));
          req.destroy();
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            settle(resolve)({ status, headers: res.headers, body: text === '' ? null : JSON.parse(text) });
          } catch {
            fail(new GatehouseError('unavailable', `Gatehouse answered ${status} with a body that is not JSON.`, status));
          }
        });
        res.on('error', fail);
      });
      req.on('socket', (socket) => {
        // A kept-alive socket is already connected: only the answer is waited for.
        if (!socket.connecting) return giveUp(responseMs, 'answer');
        giveUp(connectMs, 'accept the connection');
        socket.once('connect', () => giveUp(responseMs, 'answer'));
      });
      req.on('error', fail);
      req.end(payload);
    });
  }

  /**
   * The answer to a 2xx whose body is `expected` (or a 304 to `ifNoneMatch`); anything else is a
   * `GatehouseError` of its kind, a 401 an `UnauthenticatedError`.
   */
  async json<T>(request: JsonRequest, expected: ExpectedAnswer<T>): Promise<JsonResponse<T>> {
    // Refused before sending, and without marking Gatehouse unavailable: it is this caller's token.
    if (request.token !== undefined && !SENDABLE_TOKEN.test(request.token)) throw new UnauthenticatedError('The token is not genuine or has expired.');
    try {
      const response = await this.send(request);
      const refusal = refusalOf(response, request, expected);
      if (refusal) throw refusal;
      this.unavailable = false;
      return response as JsonResponse<T>;
    } catch (error) {
      // A refusal of Gatehouse's own (401, 403, 404, 422) says it is there; anything else does not.
      this.unavailable = isUnavailable(error);
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Why an answer cannot be used, or null when it can. */
function refusalOf(response: JsonResponse, { ifNoneMatch }: JsonRequest, expected: ExpectedAnswer<unknown>): GatehouseError | null {
  const { status, body } = response;
  if (status === 401) return new UnauthenticatedError(messageOf(body));
  if (status >= 400) return new GatehouseError(kindOfStatus(status), messageOf(body), status);
  if (status === 304) return ifNoneMatch === undefined ? new GatehouseError('unavailable', 'Gatehouse answered 304 to a request without an ETag.', 304) : null;
  // Not followed: the bearer token would go along to wherever it points.
  if (status >= 300) return new GatehouseError('unavailable', `Gatehouse answered ${status}, a redirect to ${response.headers.location ?? 'nowhere'}, which is not followed: is baseURL Gatehouse’s API?`, status);
  return expected.is(body) ? null : notTheAnswer(status, expected);
}

/** A connection refused, reset or not resolved: its code says which (an `AggregateError` of several addresses has no message). */
function unreachable(error: NodeJS.ErrnoException): GatehouseError {
  return new GatehouseError('unavailable', `Gatehouse cannot be reached (${error.code ?? error.message}).`, undefined, { cause: error });
}

function messageOf(body: unknown): string {
  return typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : 'Gatehouse refused the request.';
}
