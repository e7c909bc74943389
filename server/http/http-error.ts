import { AnswerError } from '../errors/answer-error.js';
import type { Refusal } from '../errors/refusal.js';

/**
 * An HTTP answer to an error: `status`, `headers` and the JSON body `{message}` with any other
 * `fields` the contract asks for. A refusal says which gate refused, for the 403's `reason` and for
 * the decision log. `httpErrorFor` builds one for every domain error; a route of
 * an application may also throw one directly.
 */
export class HttpError extends AnswerError {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly refusal?: Refusal,
    readonly fields: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  body(): Record<string, unknown> {
    return { message: this.message, ...this.fields };
  }
}
