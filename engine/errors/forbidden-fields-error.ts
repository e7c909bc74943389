import { GatehouseError } from './gatehouse-error.js';

/**
 * The request body sets fields outside the policy's write list; `fields` keeps request order and
 * `policy` names the method whose list refused them, when a policy list took part.
 */
export class ForbiddenFieldsError extends GatehouseError {
  readonly status = 403;

  constructor(
    readonly fields: readonly string[],
    readonly policy?: string,
  ) {
    super(`You are not allowed to set the following field(s): ${fields.join(', ')}`, { gate: 'fields', fields, ...(policy === undefined ? {} : { policy }) });
  }
}
