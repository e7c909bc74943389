import { GatehouseError } from './gatehouse-error.js';

/** An include hop whose resource the caller may not index; `path` ends at the refused hop, `permission` is the index permission it needs. */
export class ForbiddenIncludeError extends GatehouseError {
  readonly status = 403;

  constructor(
    readonly path: string,
    readonly permission?: string,
  ) {
    super(`You do not have permission to include ${path}.`, { gate: 'include', include: path, ...(permission === undefined ? {} : { permission }) });
  }
}
