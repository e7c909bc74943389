/**
 * An error a caller is told about, raised by the parsers, repositories and features below the
 * routing layer. It carries a message safe to show and the facts of its kind; which status and
 * headers answer it is the routing layer's business (`server/http/http-error-for.ts`).
 */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }

  /** What the answer carries beside `message`; nothing unless the kind has more to say. */
  details(): Record<string, unknown> {
    return {};
  }
}
