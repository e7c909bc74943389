import type { Middleware } from 'koa';

/** Runs middleware one after the other, like `app.use` in sequence, as a single middleware. */
export function chain<State, Context>(middleware: readonly Middleware<State, Context>[]): Middleware<State, Context> {
  return (ctx, next) => middleware.reduceRight<() => Promise<unknown>>((rest, current) => () => Promise.resolve(current(ctx, rest)), next)();
}
