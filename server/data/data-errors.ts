/**
 * Errors a data request answers with. Each carries the HTTP status and the public message, so
 * the error middleware only has to copy them into `{message}` (and `errors` for 422).
 */
export class DataError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadQueryError extends DataError {
  constructor(message: string) {
    super(400, message);
  }
}

export class RecordNotFoundError extends DataError {
  constructor() {
    super(404, 'Resource not found');
  }
}

export class UnknownModelError extends DataError {
  constructor(slug: string) {
    super(404, `Unknown model: ${slug}`);
  }
}

export class UnauthorizedActionError extends DataError {
  constructor() {
    super(403, 'This action is unauthorized.');
  }
}

export class ValidationFailedError extends DataError {
  constructor(readonly errors: Record<string, string[]>) {
    super(422, Object.values(errors)[0]?.[0] ?? 'The given data was invalid.');
  }
}

export class NoSoftDeletesError extends DataError {
  constructor(slug: string) {
    super(404, `Model ${slug} does not use soft deletes`);
  }
}
