import { GatehouseError } from './gatehouse-error.js';

/** An include hop that names no relation of its owner; `path` ends at the unknown hop. */
export class UnknownIncludeError extends GatehouseError {
  readonly status = 400;

  constructor(readonly path: string) {
    super(`Unknown include: ${path}.`);
  }
}
