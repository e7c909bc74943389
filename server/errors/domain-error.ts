import { AnswerError } from './answer-error.js';
import type { Refusal } from './refusal.js';

/**
 * An error a caller is told about, raised by the parsers, repositories and features below the
 * routing layer. It carries a message safe to show, the facts of its kind and, for a refusal, the
 * gate that refused; which status and headers answer it is the routing layer's business
 * (`server/http/http-error-for.ts`).
 */
export abstract class DomainError extends AnswerError {
  constructor(
    message: string,
    readonly refusal?: Refusal,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** What the answer carries beside `message`; nothing unless the kind has more to say. */
  details(): Record<string, unknown> {
    return {};
  }
}
