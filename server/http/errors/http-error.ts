/**
 * An error the client caused or must be told about. The error handler answers `{message}` with
 * `status`; subclasses add fields or headers where the contract asks for them.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  body(): Record<string, unknown> {
    return { message: this.message };
  }
}
