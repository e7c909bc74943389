import type { RefusalReason } from '../wire/refusal-reason.js';

/**
 * Base of every error the engine throws. `status` is the HTTP status the server answers with and
 * `message` is safe to show the caller, so the server can turn any of them into `{message}`
 * without knowing each class. A refusal (403) also says why in `refusal`, which is as safe.
 */
export abstract class GatehouseError extends Error {
  abstract readonly status: number;

  constructor(
    message: string,
    readonly refusal?: RefusalReason,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
