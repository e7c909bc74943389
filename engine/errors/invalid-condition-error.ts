import { GatehouseError } from './gatehouse-error.js';

/**
 * A record condition a policy declares that names an unknown attribute, relation or operator, or
 * compares a value of the wrong type. Thrown when the model is registered, so a typo stops the
 * server from starting instead of silently matching nothing (or everything).
 */
export class InvalidConditionError extends GatehouseError {
  readonly status = 500;

  constructor(
    readonly slug: string,
    readonly condition: string,
    readonly reason: string,
  ) {
    super(`Condition ${slug}:${condition} is invalid: ${reason}`);
  }
}
