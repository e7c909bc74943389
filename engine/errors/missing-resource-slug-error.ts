import { GatehouseError } from './gatehouse-error.js';

/**
 * A policy class that names no resource: a wiring mistake in the application, hence 500. It is
 * thrown instead of guessing a slug, because a guessed slug would check the wrong permissions.
 */
export class MissingResourceSlugError extends GatehouseError {
  readonly status = 500;

  constructor(readonly policyName: string) {
    super(`${policyName} names no resource: set static resourceSlug or model, or obtain it from resolvePolicy().`);
  }
}
