import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { BadRequestError } from '../errors/bad-request-error.js';
import { BodyNotJsonError } from '../errors/body-not-json-error.js';
import { BodyNotObjectError } from '../errors/body-not-object-error.js';
import type { DomainError } from '../errors/domain-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { UnsupportedMediaTypeError } from '../errors/unsupported-media-type-error.js';
import { MAX_FORM_DEPTH, MAX_FORM_FIELDS, MAX_QUERY_LIST } from '../models/request-limits.js';
import { drainRequest } from './drain-request.js';
import { formListTooLong, formNestedTooDeep, formTooManyFields } from './form-limits.js';
import { PROTO_KEY, protoKeyRefused } from './proto-key.js';
import { requestAborted } from './request-aborted.js';
import type { GatehouseState } from './state.js';

// The parser's own errors name parser internals; callers get one of ours instead. It also refuses
// well-formed JSON: a scalar (`null`, `42`) in strict mode, and an object holding a `__proto__`
// key, which could reach an object's prototype. Its sender needs to hear what is wrong with it,
// not that it is malformed.
function parserError(error: { type?: string; message?: string; body?: unknown }, isForm: boolean): DomainError {
  if (error.type === 'entity.too.large') return new PayloadTooLargeError();
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') return new UnsupportedMediaTypeError();
  if (error.type === 'request.aborted') return requestAborted();
  if (isForm) return formError(error.message ?? '');
  const json = wellFormedJson(error.body);
  if (json !== null && (json.value === null || typeof json.value !== 'object')) return new BodyNotObjectError();
  if (json?.holdsProtoKey) return protoKeyRefused();
  return new BadRequestError('Malformed JSON in the request body.');
}

// The form parser (qs) names a limit it meets only in its message; without its limits it would
// drop fields, keep deep names as literal keys, or turn a list into an object, all silently.
const FORM_LIMITS: [prefix: string, refusal: () => BadRequestError][] = [
  ['Parameter limit exceeded', formTooManyFields],
  ['Input depth exceeded', formNestedTooDeep],
  ['Array limit exceeded', formListTooLong],
];

// allowDots is the parser's default already, written here so that it never writes it into this object.
// A run of `&` is one delimiter: the parser read each empty part as a value of the empty name,
// which it drops only after counting it, so `a=1&&&…&b=2` was refused as a list past its limit.
// A body that starts or ends with `&` still has one empty part there, dropped as before.
const FORM_OPTIONS = {
  allowDots: true,
  delimiter: /&+/,
  parameterLimit: MAX_FORM_FIELDS,
  depth: MAX_FORM_DEPTH,
  arrayLimit: MAX_QUERY_LIST,
  strictDepth: true,
  throwOnLimitExceeded: true,
};

function formError(message: string): BadRequestError {
  const limit = FORM_LIMITS.find(([prefix]) => message.startsWith(prefix));
  return limit?.[1]() ?? new BadRequestError('Malformed form body.');
}

/** The value of a well-formed JSON text, and whether any of its objects has a `__proto__` key; null for anything else. */
function wellFormedJson(text: unknown): { value: unknown; holdsProtoKey: boolean } | null {
  if (typeof text !== 'string') return null;
  let holdsProtoKey = false;
  try {
    const value: unknown = JSON.parse(text, (key, child: unknown) => {
      if (key === PROTO_KEY) holdsProtoKey = true;
      return child;
    });
    return { value, holdsProtoKey };
  } catch {
    return null;
  }
}

// RFC 8259: JSON exchanged between systems is UTF-8. The parser would decode another charset it
// knows (or misread one it does not) rather than refuse it.
const JSON_CHARSETS = new Set(['', 'utf-8', 'utf8']);

// JSON is the API's own; form encodings are what HTML forms and Laravel-style clients also send.
const JSON_TYPES = ['json', '+json'];
const BODY_TYPES = [...JSON_TYPES, 'urlencoded', 'multipart'];

/**
 * A body of another type would reach the handlers as no body at all: a write that silently
 * changes nothing. Bodiless requests may name any type or none.
 */
export function requireJsonType(): Middleware<GatehouseState> {
  return async (ctx, next) => {
    const hasContent = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasContent && !ctx.is(BODY_TYPES)) {
      throw new BodyNotJsonError();
    }
    if (hasContent && ctx.is(JSON_TYPES) && !JSON_CHARSETS.has(ctx.request.charset.toLowerCase())) {
      throw new UnsupportedMediaTypeError(`JSON request bodies must be UTF-8, not charset=${ctx.request.charset}.`);
    }
    await next();
  };
}

/** JSON bodies (objects or arrays) and URL-encoded forms up to `limit`: 413 above it, 400 when malformed. */
export function jsonBody(limit: string): Middleware<GatehouseState> {
  // The parser hands `queryString` on to qs, which its types do not say.
  const options: bodyParser.Options & { queryString: typeof FORM_OPTIONS } = {
    enableTypes: ['json', 'form'],
    jsonLimit: limit,
    formLimit: limit,
    queryString: FORM_OPTIONS,
    strict: true,
    onerror: (error, ctx) => {
      // At the limit the parser stops reading, leaving the rest of the body unread.
      drainRequest(ctx.req);
      throw parserError(error as { type?: string; message?: string; body?: unknown }, ctx.is('urlencoded') !== false);
    },
  };
  const parse = bodyParser(options);
  // Without a Content-Type the parser reads nothing and gives `{}`: most requests (every GET)
  // get that without its asynchronous round of type checks.
  return (ctx, next) => {
    if (ctx.request.body !== undefined || ctx.get('Content-Type') !== '') return parse(ctx, next);
    ctx.request.body = {};
    return next();
  };
}
