import { GatehouseError } from './gatehouse-error.js';

/**
 * A permission string that is not `{slug}.{action}`, `{slug}.*` or `*`. It is 422 because the
 * place a caller meets it is an endpoint that stores permissions; permissions already stored
 * were validated on the way in.
 */
export class InvalidPermissionError extends GatehouseError {
  readonly status = 422;

  constructor(
    readonly permission: unknown,
    readonly reason: string,
  ) {
    super(`Invalid permission ${typeof permission === 'string' ? JSON.stringify(permission) : String(permission)}: ${reason}`);
  }
}
