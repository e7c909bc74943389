import { GatehouseError } from './gatehouse-error.js';

/** An include hop whose resource the caller may not index; `path` ends at the refused hop. */
export class ForbiddenIncludeError extends GatehouseError {
  readonly status = 403;

  constructor(readonly path: string) {
    super(`You do not have permission to include ${path}.`);
  }
}
