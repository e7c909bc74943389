import { GatehouseError } from './gatehouse-error.js';

/** The request body sets fields outside the policy's write list; `fields` keeps request order. */
export class ForbiddenFieldsError extends GatehouseError {
  readonly status = 403;

  constructor(readonly fields: readonly string[]) {
    super(`You are not allowed to set the following field(s): ${fields.join(', ')}`);
  }
}
