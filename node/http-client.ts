import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SERVICE_HEADER, SERVICE_NAME, SERVICE_NAME_RULE } from '@gatehouse/engine/wire';
import { notTheAnswer, type ExpectedAnswer } from './answer-shapes.js';
import { isAbortOf, onAbort } from './abortable.js';
import { ConnectionLine } from './connection-line.js';
import { GatehouseError, GatehouseOptionError, isUnavailable, kindOfStatus, UnauthenticatedError } from './errors.js';

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
  /** Cancels the call: it rejects with the signal's reason, as fetch does. */
  signal?: AbortSignal;
}

/** How long a call waits for Gatehouse, in milliseconds (from 1 to 2,147,483,647, as a Node timer keeps them). */
export interface Timeouts {
  /**
   * For a connection: a kept-alive one to come free (past `maxConnections`, the call waits in
   * line) or a new one to open; default 2,000.
   */
  connectMs?: number;
  /** From the request being sent to the whole answer having arrived; default 5,000. */
  responseMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<Timeouts> = { connectMs: 2_000, responseMs: 5_000 };

/** Connections a client keeps open to Gatehouse at most; further calls wait for one to come free. */
export const DEFAULT_MAX_CONNECTIONS = 32;

export interface HttpClientOptions {
  baseURL: string;
  timeouts?: Timeouts;
  /** The asking service's name, sent with every call as `X-Gatehouse-Service`. */
  service?: string;
  maxConnections?: number;
}

// Gatehouse's largest answers (a hundred plans, a role's packed rules) stay far below this; a
// body past it is not one of them, and held whole it could exhaust the service's memory (past
// 512 MiB, Node cannot even make it a string and the process crashed).
const MAX_ANSWER_MIB = 10;
const MAX_ANSWER_BYTES = MAX_ANSWER_MIB * 1024 * 1024;

// A PASETO token is printable ASCII; anything else cannot be sent as a header, nor be genuine.
const SENDABLE_TOKEN = /^[!-~]+$/;

/**
 * JSON over one keep-alive agent per client: every call to Gatehouse reuses open connections
 * instead of paying for a TCP (and TLS) handshake each time, and at most `maxConnections` are
 * open, so a hung Gatehouse cannot make the service open a socket per waiting call. Every call
 * gives up after its timeouts, and the client remembers whether the last call reached Gatehouse.
 */
export class HttpClient {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly timeouts: Required<Timeouts>;
  private readonly maxConnections: number;
  private readonly line: ConnectionLine;
  /** How to end each call in flight or in line, for `close()`. */
  private readonly live = new Set<(error: Error) => void>();
  /** Sent with every call: the asking service's name (`X-Gatehouse-Service`), when it gave one. */
  private readonly sentHeaders: Readonly<Record<string, string>>;
  /**
   * Whether Gatehouse was last found unreachable, slow or failing (`unavailable`, `timeout`): by
   * the last call to end, unless a call sent after it got an answer.
   */
  unavailable = false;
  /** Aborted by `close()` with the error every call then ends with: no call is sent any more, and work waiting to call stops waiting. */
  private readonly closing = new AbortController();
  /** Calls sent so far, and the number of the last one sent that got an answer. */
  private sent = 0;
  private lastAnswered = 0;

  constructor({ baseURL, timeouts, service, maxConnections = DEFAULT_MAX_CONNECTIONS }: HttpClientOptions) {
    if (!Number.isSafeInteger(maxConnections) || maxConnections < 1) throw new GatehouseOptionError('maxConnections', `The maxConnections option must be a whole number of at least 1, not ${maxConnections}.`);
    this.base = baseOption(baseURL);
    const agentOptions = { keepAlive: true, maxSockets: maxConnections };
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.timeouts = timeoutsOption(timeouts);
    this.maxConnections = maxConnections;
    this.line = new ConnectionLine(maxConnections);
    this.sentHeaders = service === undefined ? {} : { [SERVICE_HEADER]: sendableService(service) };
  }

  /**
   * One request, and on a kept-alive connection Gatehouse had closed meanwhile, one more for a
   * GET: due by `deadline`, when the first one's answer was, so a call sent twice waits no longer
   * than its timeouts say.
   */
  private send(request: JsonRequest, deadline?: number): Promise<JsonResponse> {
    const { method, path, token, body, ifNoneMatch, signal } = request;
    // Nothing is sent for a call cancelled already, nor by a closed client.
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.closing.signal.aborted) return Promise.reject(this.closing.signal.reason as GatehouseError);
    const mayRetry = method === 'GET' && deadline === undefined;
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { ...this.sentHeaders, accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const { connectMs, responseMs } = this.timeouts;
    const answerLate = `Gatehouse did not answer within ${responseMs} ms.`;
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let req: ClientRequest | undefined;
      let leaveLine = () => {};
      let stopListening = () => {};
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          stopListening();
          this.live.delete(cancel);
          if (req === undefined) leaveLine();
          else this.line.release();
          then(value);
        };
      const fail = (error: Error) => settle(reject)(error instanceof GatehouseError ? error : unreachable(error));
      // Ends the call with `error` wherever it is: in line, connecting, or awaiting the answer.
      const cancel = (error: Error) => {
        settle(reject)(error);
        req?.destroy();
      };
      const giveUp = (ms: number, why: string) => {
        if (settled) return;
        clearTimeout(timer);
        const left = deadline === undefined ? ms : Math.min(ms, deadline - performance.now());
        const message = left < ms ? answerLate : why;
        timer = setTimeout(() => cancel(new GatehouseError('timeout', message)), Math.max(left, 0));
      };
      const start = () => {
        // When the answer is due: a retry must arrive by then too.
        let answerDue = Infinity;
        // Whether a byte of the answer arrived: after one, the request is never sent again.
        let answerBegun = () => false;
        const sent = send(url, { method, headers, agent: this.agent }, (res) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            chunks.push(chunk);
            if (received <= MAX_ANSWER_BYTES) return;
            fail(new GatehouseError('unavailable', `Gatehouse answered ${status} with more than ${MAX_ANSWER_MIB} MiB.`, status));
            sent.destroy();
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              settle(resolve)({ status, headers: res.headers, body: text === '' ? null : JSON.parse(text) });
            } catch {
              fail(new GatehouseError('unavailable', `Gatehouse answered ${status} with a body that is not JSON.`, status));
            }
          });
          res.on('error', (error) => fail(new GatehouseError('unavailable', `Gatehouse answered ${status} but closed the connection before the whole answer arrived.`, status, { cause: error })));
        });
        req = sent;
        sent.on('socket', (socket) => {
          const readBefore = socket.bytesRead;
          answerBegun = () => socket.bytesRead > readBefore;
          const awaitAnswer = () => {
            answerDue = performance.now() + responseMs;
            giveUp(responseMs, answerLate);
          };
          // A kept-alive socket is already connected: only the answer is waited for.
          if (!socket.connecting) return awaitAnswer();
          // The time in line and the connection's opening share connectMs.
          giveUp(Math.max(connectMs - (performance.now() - calledAt), 0), `Gatehouse did not accept the connection within ${connectMs} ms.`);
          socket.once('connect', awaitAnswer);
        });
        sent.on('error', (error: NodeJS.ErrnoException) => {
          // Gatehouse closed an idle kept-alive connection as this request went out on it: a GET
          // changes nothing, so it is asked once more on a new connection; anything else is not.
          if (!settled && mayRetry && sent.reusedSocket && !answerBegun() && STALE_CONNECTION.has(error.code ?? '')) return settle(resolve)(this.send(request, answerDue));
          fail(error);
        });
        sent.end(payload);
      };
      const calledAt = performance.now();
      // Waiting in line for a connection counts against connectMs, like opening one.
      giveUp(connectMs, `No connection to Gatehouse came free within ${connectMs} ms (maxConnections: ${this.maxConnections}, all in use).`);
      this.live.add(cancel);
      if (signal !== undefined) stopListening = onAbort(signal, () => cancel(signal.reason as Error));
      leaveLine = this.line.enter(start);
    });
  }

  /**
   * The answer to a 2xx whose body is `expected` (or a 304 to `ifNoneMatch`); anything else is a
   * `GatehouseError` of its kind, a 401 an `UnauthenticatedError`; a cancelled call rejects with
   * its signal's reason.
   */
  async json<T>(request: JsonRequest, expected: ExpectedAnswer<T>): Promise<JsonResponse<T>> {
    // Refused before sending, and without marking Gatehouse unavailable: it is this caller's token.
    if (request.token !== undefined && !SENDABLE_TOKEN.test(request.token)) throw new UnauthenticatedError('The token is not genuine or has expired.');
    const number = (this.sent += 1);
    try {
      const response = await this.send(request);
      const refusal = refusalOf(response, request, expected);
      if (refusal) throw refusal;
      this.answered(number);
      return response as JsonResponse<T>;
    } catch (error) {
      // A cancelled call says nothing about Gatehouse; a refusal of its own (401, 403, 404, 422)
      // says it is there; anything else, that it is not, unless a call sent later got an answer.
      if (isAbortOf(error, request.signal)) throw error;
      if (!isUnavailable(error)) this.answered(number);
      else if (number > this.lastAnswered) this.unavailable = true;
      throw error;
    }
  }

  private answered(number: number): void {
    this.unavailable = false;
    this.lastAnswered = Math.max(this.lastAnswered, number);
  }

  /** Aborts once `close()` is called, with its `unavailable` error: for work that waits before it calls. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /** Ends the calls in flight and in line (`unavailable`), and closes the kept-alive connections. */
  close(): void {
    const closed = new GatehouseError('unavailable', CLOSED);
    this.closing.abort(closed);
    for (const cancel of this.live) cancel(closed);
    this.agent.destroy();
  }
}

const CLOSED = 'The Gatehouse client was closed before Gatehouse answered.';

// The errors of writing to a connection the other end has closed.
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** Gatehouse's API base, as a URL calls are resolved against; or the option's error for one no call could reach. */
function baseOption(baseURL: string): URL {
  const base = URL.canParse(baseURL) ? new URL(baseURL.endsWith('/') ? baseURL : `${baseURL}/`) : undefined;
  if (base?.protocol !== 'http:' && base?.protocol !== 'https:') throw new GatehouseOptionError('baseURL', `The baseURL option must be an http or https URL, such as https://gatehouse.example.com/api, not ${JSON.stringify(baseURL)}.`);
  return base;
}

// The longest delay a Node timer keeps: past it, or for Infinity, it fires after 1 ms instead.
const LONGEST_TIMER_MS = 2_147_483_647;

/** A timeout as given, else its default; or the option's error for one no timer can keep, which would give up on every call at once. */
function timeoutOption(name: keyof Timeouts, ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_TIMEOUTS[name];
  if (typeof ms !== 'number' || !(ms >= 1 && ms <= LONGEST_TIMER_MS)) throw new GatehouseOptionError('timeout', `The timeout.${name} option must be a number of milliseconds from 1 to ${LONGEST_TIMER_MS}, not ${String(ms)}.`);
  return ms;
}

/**
 * The `timeout` option's two timeouts, or the option's error for anything else: a number (the
 * whole timeout, as other clients take it) or a misspelt name would be ignored, and the defaults
 * kept without a word.
 */
function timeoutsOption(timeouts: Timeouts | undefined): Required<Timeouts> {
  if (timeouts === undefined) return DEFAULT_TIMEOUTS;
  if (typeof timeouts !== 'object' || timeouts === null || Array.isArray(timeouts)) throw new GatehouseOptionError('timeout', `The timeout option must be an object of connectMs and responseMs, not ${JSON.stringify(timeouts)}.`);
  const unknown = Object.keys(timeouts).filter((name) => !Object.hasOwn(DEFAULT_TIMEOUTS, name));
  if (unknown.length > 0) throw new GatehouseOptionError('timeout', `The timeout option takes connectMs and responseMs, not ${unknown.join(', ')}.`);
  return { connectMs: timeoutOption('connectMs', timeouts.connectMs), responseMs: timeoutOption('responseMs', timeouts.responseMs) };
}

/**
 * `service`, or the option's error: Gatehouse refuses any other name on every `authorize` (400),
 * and a line break would fail every call, or split the header.
 */
function sendableService(service: string): string {
  if (typeof service !== 'string' || !SERVICE_NAME.test(service)) throw new GatehouseOptionError('service', `The service option ${JSON.stringify(service)} must be ${SERVICE_NAME_RULE}.`);
  return service;
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
