import { isAbortOf } from './abortable.js';
import { GatehouseError, serviceStatus } from './errors.js';
import type { TokenCaller } from './token-verifier.js';

/** The verified caller a middleware puts on the request as `request.gatehouse`. */
export interface RequestCaller extends TokenCaller {
  /** The bearer token, to pass on to `authorize` and `permissions`. */
  token: string;
}

type Headers = Record<string, string | string[] | undefined>;

/** The part of Node's `ServerResponse` that tells the middleware its caller went away. */
interface ClosingResponse {
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * The part of Node's `IncomingMessage` that tells the same of a request pipelined behind another
 * on its connection: its response hears nothing of the connection closing until the answers
 * before it are out, but Node destroys the request at once.
 */
interface ClosingRequest {
  once?(event: 'close', listener: () => void): unknown;
  off?(event: 'close', listener: () => void): unknown;
  readonly socket?: { readonly destroyed: boolean } | null;
}

/** The parts of an Express (or Connect) request and response the middleware uses. */
export interface ConnectRequest extends ClosingRequest {
  headers: Headers;
  gatehouse?: RequestCaller;
}
export interface ConnectResponse extends ClosingResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

/** The parts of a Fastify request and reply the hook uses. */
export interface FastifyLikeRequest {
  headers: Headers;
  gatehouse?: RequestCaller;
  /** Node's request under Fastify's. */
  raw?: ClosingRequest;
}
export interface FastifyLikeReply {
  /** Node's response under the reply. */
  raw: ClosingResponse;
  code(status: number): FastifyLikeReply;
  send(body: unknown): FastifyLikeReply;
}

type Verify = (token: string, options: { signal: AbortSignal }) => Promise<TokenCaller>;

const BEARER = /^Bearer ([^\s]+)$/i;

function bearerToken(headers: Headers): string | null {
  const header = headers.authorization;
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/**
 * The caller of a request, or the status and body it is refused with: 401 for a token that is not
 * genuine, 503 when the keys to check it could not be fetched from Gatehouse (never let through).
 * A request closed by its client while its token is checked stops waiting for the key list (which
 * is no longer fetched once no one waits for it) and is refused with 499, which no one reads.
 */
async function callerOf(verify: Verify, headers: Headers, request: ClosingRequest, response: ClosingResponse): Promise<RequestCaller | Refusal> {
  const token = bearerToken(headers);
  if (token === null) return { status: 401, body: { message: 'Unauthenticated.' } };
  const closed = new AbortController();
  const abort = () => closed.abort();
  // A request's own 'close' also follows the reading of its whole body, with its connection open.
  const requestClosed = () => {
    if (request.socket?.destroyed !== false) abort();
  };
  response.once('close', abort);
  request.once?.('close', requestClosed);
  try {
    return { ...(await verify(token, { signal: closed.signal })), token };
  } catch (error) {
    if (isAbortOf(error, closed.signal)) return { status: CLIENT_CLOSED_REQUEST, body: { message: 'The request was closed before its token was checked.' } };
    if (error instanceof GatehouseError) return { status: serviceStatus(error), body: { message: error.message } };
    throw error;
  } finally {
    response.off('close', abort);
    request.off?.('close', requestClosed);
  }
}

interface Refusal {
  status: number;
  body: { message: string };
}

// The status proxies (nginx) log for a request its client closed before it was answered.
const CLIENT_CLOSED_REQUEST = 499;

const refused = (answer: RequestCaller | Refusal): answer is Refusal => 'status' in answer;

/** Express/Connect: 401 without a genuine, unexpired bearer token (503 without Gatehouse's keys), else `req.gatehouse` and on. */
export function connectMiddleware(verify: Verify) {
  return (req: ConnectRequest, res: ConnectResponse, next: (error?: unknown) => void): void => {
    callerOf(verify, req.headers, req, res).then((answer) => {
      if (!refused(answer)) {
        req.gatehouse = answer;
        return next();
      }
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer.body));
    }, next);
  };
}

/** Fastify `onRequest` hook: the same, with `request.gatehouse`. */
export function fastifyHook(verify: Verify) {
  // An async hook that answers returns the reply, so Fastify stops there.
  return async (request: FastifyLikeRequest, reply: FastifyLikeReply): Promise<FastifyLikeReply | undefined> => {
    const answer = await callerOf(verify, request.headers, request.raw ?? {}, reply.raw);
    if (refused(answer)) return reply.code(answer.status).send(answer.body);
    request.gatehouse = answer;
    return undefined;
  };
}

/** The caller a middleware put on `request`; throws when none ran before (a wiring mistake). */
export function requestCaller(request: object): RequestCaller {
  const caller = (request as { gatehouse?: RequestCaller }).gatehouse;
  if (caller === undefined) throw new Error('No Gatehouse caller on the request: mount gatehouse.express() or gatehouse.fastify() first.');
  return caller;
}
