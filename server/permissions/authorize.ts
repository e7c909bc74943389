import { ForbiddenError } from '@gatehouse/engine';
import { required, type GatehouseContext, type GatehouseMiddleware } from '../http/state.js';

/** 403 unless the caller's permissions allow `{slug}.{action}`. */
export function assertCan(ctx: GatehouseContext, action: string, slug: string): void {
  if (!required(ctx, 'authorization').ability.can(action, slug)) throw new ForbiddenError();
}

export function authorize(action: string, slug: string): GatehouseMiddleware {
  return async (ctx, next) => {
    assertCan(ctx, action, slug);
    await next();
  };
}
