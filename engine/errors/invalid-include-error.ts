import { GatehouseError } from './gatehouse-error.js';

/** An `include` query value that is not a comma-separated list of dotted relation paths. */
export class InvalidIncludeError extends GatehouseError {
  readonly status = 400;

  constructor(
    readonly include: string,
    readonly reason: string,
  ) {
    super(`Invalid include ${JSON.stringify(include)}: ${reason}`);
  }
}
