import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import type { Middleware } from 'koa';
import type { GatehouseState } from './state.js';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-Request-Id, Prefer';
// Pagination travels in headers, and a cross-origin script reads only the headers exposed to it.
const EXPOSED_HEADERS = [...Object.values(PAGE_HEADERS), 'X-Request-Id'].join(', ');
// Spares a browser one preflight round trip per request for ten minutes.
const PREFLIGHT_MAX_AGE = '600';

/**
 * Lets browser apps on the listed origins (`*`: any) call the API. Never with credentials: the
 * session is a bearer header the app attaches itself, never a cookie the browser sends on its
 * own, so any origin can be allowed without opening the door to cross-site requests.
 */
export function cors(origins: readonly string[]): Middleware<GatehouseState> {
  const anyOrigin = origins.includes('*');
  const listed = new Set(origins);

  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    const allowed = origin !== '' && (anyOrigin || listed.has(origin));
    // Caches must not hand one origin's answer to another when the answer depends on it.
    if (!anyOrigin) ctx.vary('Origin');
    if (allowed) ctx.set('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);

    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '') {
      // Without the allow headers a browser refuses the actual request; nothing else is needed.
      if (allowed) {
        ctx.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        ctx.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
      }
      ctx.status = 204;
      return;
    }

    if (allowed) ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    await next();
  };
}
