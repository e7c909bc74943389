import type { Context } from 'koa';
import { BadRequestError } from '../errors/bad-request-error.js';

export const METHOD_OVERRIDE_HEADER = 'X-HTTP-Method-Override';
const METHOD_FIELD = '_method';
const OVERRIDES = ['PUT', 'PATCH', 'DELETE'];

/**
 * Laravel's method spoofing, for HTML forms and clients that can only POST: a POST names the
 * method it stands for in the override header or a `_method` body field, which no handler sees.
 * Routing then treats it as that method; anything but PUT, PATCH or DELETE is a 400.
 */
export function overrideMethod(ctx: Context): void {
  if (ctx.method !== 'POST') return;
  const body: unknown = ctx.request.body;
  let requested: unknown = ctx.get(METHOD_OVERRIDE_HEADER) || undefined;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, METHOD_FIELD)) {
    const { [METHOD_FIELD]: field, ...rest } = body as Record<string, unknown>;
    requested ??= field;
    ctx.request.body = rest;
  }
  if (requested !== undefined) {
    const method = typeof requested === 'string' ? requested.toUpperCase() : '';
    if (!OVERRIDES.includes(method)) throw new BadRequestError(`The method override must be one of: ${OVERRIDES.join(', ')}.`);
    ctx.method = method;
  }
}
