import { send } from '@koa/send';
import type { Middleware, ParameterizedContext } from 'koa';
import type { GatehouseState } from '../http/state.js';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** Sends a file of the folder; false when there is none (also for hidden, malformed or escaping paths). */
async function sendFile(ctx: ParameterizedContext<GatehouseState>, root: string, file: string): Promise<boolean> {
  const hashed = file.startsWith('assets/');
  try {
    return (await send(ctx, file, { root, maxage: hashed ? YEAR_MS : 0, immutable: hashed })) !== '';
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return false;
    throw error;
  }
}

/**
 * A built browser app (Vite's output folder) at `/`, outside the API's base path. Hashed assets
 * are cached for a year; any other page path a browser asks for gets `index.html`, so the app's
 * own links survive a reload.
 */
export function webApp(root: string, basePath: string): Middleware<GatehouseState> {
  const isApi = (path: string) => basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApi(ctx.path)) return next();
    const file = ctx.path.replace(/^\/+/, '');
    if (file !== '' && !file.endsWith('/') && (await sendFile(ctx, root, file))) return;
    if (file.startsWith('assets/') || !ctx.accepts('html')) return next();
    ctx.set('Cache-Control', 'no-cache');
    if (!(await sendFile(ctx, root, 'index.html'))) return next();
  };
}
