import { HttpError } from './http-error.js';

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends HttpError {
  constructor(readonly errors: FieldErrors) {
    super(422, 'The given data was invalid.');
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  override body(): Record<string, unknown> {
    return { message: this.message, errors: this.errors };
  }
}
