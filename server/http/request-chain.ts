import type { GatehouseMiddleware, Stage } from './state.js';

/**
 * Stages composed in order, from the state a request arrives with (`In`) to the state they
 * establish (`Out`). Each `then` is checked against what the stages before it established, and
 * `before` takes only handlers that need no more than `Out`: a handler mounted behind the wrong
 * chain does not compile.
 */
export class RequestChain<In, Out> {
  private constructor(private readonly steps: readonly GatehouseMiddleware<never>[]) {}

  /** A chain with no stage yet, for requests that arrive with `In`. */
  static from<In>(): RequestChain<In, In> {
    return new RequestChain<In, In>([]);
  }

  /** The chain followed by a stage; what the stage learns goes into `ctx.state` for the rest of the request. */
  then<Learned>(stage: Stage<Out, Learned>): RequestChain<In, Out & Learned> {
    const step: GatehouseMiddleware<Out> = (ctx, next) =>
      stage(ctx, (learned) => {
        Object.assign(ctx.state as object, learned);
        return next();
      });
    return new RequestChain([...this.steps, step]);
  }

  /** The chain's middleware, then the handlers that read what it established. */
  before(...handlers: GatehouseMiddleware<Out>[]): GatehouseMiddleware<In>[] {
    // Sound by construction: every step after the first runs on the state the ones before it made.
    return [...this.steps, ...handlers] as GatehouseMiddleware<never>[] as GatehouseMiddleware<In>[];
  }
}
