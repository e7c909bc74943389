import { GatehouseError } from './gatehouse-error.js';

/** A policy method refused the action. */
export class ForbiddenError extends GatehouseError {
  readonly status = 403;

  constructor() {
    super('This action is unauthorized.');
  }
}
