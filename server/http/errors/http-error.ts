import type { Refusal } from './refusal.js';

/**
 * An error the client caused or must be told about. The error handler answers `{message}` with
 * `status`; subclasses add fields or headers where the contract asks for them. A refusal says
 * which gate refused, for the 403's `reason` and for the decision log.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly refusal?: Refusal,
  ) {
    super(message);
    this.name = new.target.name;
  }

  body(): Record<string, unknown> {
    return { message: this.message };
  }
}
