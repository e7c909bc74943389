import type { RefusalReason } from '../wire/refusal-reason.js';
import { GatehouseError } from './gatehouse-error.js';

/** A policy method (or a permission check) refused the action; `refusal` names the permission and the method. */
export class ForbiddenError extends GatehouseError {
  readonly status = 403;

  constructor(refusal?: RefusalReason) {
    super('This action is unauthorized.', refusal);
  }
}
