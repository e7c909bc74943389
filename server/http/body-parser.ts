import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { BadRequestError } from './errors/bad-request-error.js';
import type { HttpError } from './errors/http-error.js';
import { PayloadTooLargeError } from './errors/payload-too-large-error.js';
import { UnsupportedMediaTypeError } from './errors/unsupported-media-type-error.js';
import type { GatehouseState } from './state.js';

// The parser's own errors name parser internals; callers get one of ours instead.
function parserError(error: { type?: string; status?: number }): HttpError {
  if (error.type === 'entity.too.large') return new PayloadTooLargeError();
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') return new UnsupportedMediaTypeError();
  if (error.type === 'request.aborted') return new BadRequestError('The request was aborted.');
  return new BadRequestError('Malformed JSON in the request body.');
}

// RFC 8259: JSON exchanged between systems is UTF-8. The parser would decode another charset it
// knows (or misread one it does not) rather than refuse it.
const JSON_CHARSETS = new Set(['', 'utf-8', 'utf8']);

/**
 * A body of another type would reach the handlers as no body at all: a write that silently
 * changes nothing (`curl -d` sends form encoding). Bodiless requests may name any type or none.
 */
export function requireJsonType(): Middleware<GatehouseState> {
  return async (ctx, next) => {
    const hasContent = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasContent && !ctx.is('json', '+json')) {
      throw new UnsupportedMediaTypeError('Request bodies must be JSON, sent with Content-Type: application/json.');
    }
    if (hasContent && !JSON_CHARSETS.has(ctx.request.charset.toLowerCase())) {
      throw new UnsupportedMediaTypeError(`JSON request bodies must be UTF-8, not charset=${ctx.request.charset}.`);
    }
    await next();
  };
}

/** JSON bodies (objects or arrays) up to `limit`: 413 above it, 400 when malformed. */
export function jsonBody(limit: string): Middleware<GatehouseState> {
  return bodyParser({
    enableTypes: ['json'],
    jsonLimit: limit,
    strict: true,
    onerror: (error) => {
      throw parserError(error as { type?: string });
    },
  });
}
