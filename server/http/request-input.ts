import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import { jsonBody, requireJsonType } from './body-parser.js';
import { chain } from './chain.js';
import { overrideMethod } from './method-override.js';
import { multipartBody } from './multipart-body.js';
import { rejectLongQuery } from './query-parts.js';
import { rejectNul } from './reject-nul.js';
import { emptyUntypedBody } from './untyped-body.js';
import type { GatehouseState } from './state.js';

/**
 * A request that frames no body: neither Content-Length nor Transfer-Encoding (RFC 9112 6.3).
 * Without a type as well, every body middleware would read nothing and give `{}`, so it skips
 * them all. A request that names a type goes through them even without a body, as the parser's
 * answer to its headers alone (an unknown Content-Encoding, say) is part of the contract.
 */
const framesNoBody = (headers: IncomingHttpHeaders) => headers['content-length'] === undefined && headers['transfer-encoding'] === undefined;

/** What every request's input must pass once read: a query of bounded parts, no NUL anywhere, and a POST's method override. */
const checked: Middleware<GatehouseState> = (ctx, next) => {
  rejectLongQuery(ctx);
  rejectNul(ctx);
  overrideMethod(ctx);
  return next();
};

/**
 * The request's input as handlers read it: the body parsed (JSON, URL-encoded or multipart, within
 * `bodyLimit`), the query within its parts and, with the body, free of NUL, a POST's method override applied. A bodiless
 * request (every ordinary GET and HEAD) gets its empty body and its checks in one step, without a
 * parser's asynchronous layers; so does one whose untyped chunked body turns out empty, once it has.
 */
export function requestInput(bodyLimit: string): Middleware<GatehouseState> {
  const parsed = chain<GatehouseState, object>([requireJsonType(), jsonBody(bodyLimit), multipartBody(bodyLimit), checked]);
  const bodiless: Middleware<GatehouseState> = (ctx, next) => {
    ctx.request.body = {};
    return checked(ctx, next);
  };
  return (ctx, next) => {
    const { headers } = ctx.req;
    if (headers['content-type'] !== undefined) return parsed(ctx, next);
    if (framesNoBody(headers)) return bodiless(ctx, next);
    // Chunked, so its length is not known before it is read.
    if (headers['content-length'] === undefined) return emptyUntypedBody(ctx.req).then(() => bodiless(ctx, next));
    return parsed(ctx, next);
  };
}
