import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import koaCors from '@koa/cors';
import type { Middleware } from 'koa';
import type { CorsOptions } from '../config/cors-origins.js';
import { METHOD_OVERRIDE_HEADER } from './method-override.js';
import type { GatehouseState } from './state.js';

const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
// Rhino clients send X-Requested-With on every request; a preflight that refused it would stop them.
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id', 'X-Requested-With', METHOD_OVERRIDE_HEADER, 'Prefer'];
// Pagination travels in headers, and a cross-origin script reads only the headers exposed to it.
const EXPOSED_HEADERS = [...Object.values(PAGE_HEADERS), 'X-Request-Id'];
// Spares a browser one preflight round trip per request for ten minutes.
const PREFLIGHT_MAX_AGE = 600;

const isPreflight = (ctx: { method: string; get(name: string): string }) => ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '';

/**
 * Lets browser apps on the listed origins (`*`: any) call the API. The session is a bearer header
 * the app attaches itself, so no credentials are needed; with `credentials` (listed origins only)
 * the listed origin is echoed with `Access-Control-Allow-Credentials: true`, never `*`.
 */
export function cors({ origins, credentials }: CorsOptions): Middleware<GatehouseState> {
  const anyOrigin = origins.includes('*');
  const listed = new Set(origins);
  const answeredOrigin = (ctx: { get(name: string): string }) => {
    const origin = ctx.get('Origin');
    if (origin === '' || !(anyOrigin || listed.has(origin))) return '';
    return anyOrigin ? '*' : origin;
  };
  const allowed = koaCors({
    // An empty answer adds no CORS headers, so the browser keeps the response from the page.
    origin: answeredOrigin,
    credentials,
    allowMethods: ALLOWED_METHODS.join(', '),
    allowHeaders: ALLOWED_HEADERS.join(', '),
    exposeHeaders: EXPOSED_HEADERS.join(', '),
    maxAge: PREFLIGHT_MAX_AGE,
  });
  // A preflight the origin check refused still ends here: without the allow headers the browser
  // refuses the actual request, and no route should answer an OPTIONS.
  const answer = (ctx: Parameters<Middleware<GatehouseState>>[0], next: () => Promise<unknown>) => {
    if (!isPreflight(ctx)) return next();
    ctx.status = 204;
    return Promise.resolve();
  };
  return (ctx, next) => {
    // A request from no allowed origin (every request but a browser's from another origin) gets
    // what @koa/cors gives it, without passing through its layers.
    if (answeredOrigin(ctx) !== '') return allowed(ctx, () => answer(ctx, next));
    ctx.vary('Origin');
    return answer(ctx, next);
  };
}
