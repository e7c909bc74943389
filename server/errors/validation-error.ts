import { DomainError } from './domain-error.js';

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends DomainError {
  constructor(readonly errors: FieldErrors) {
    super('The given data was invalid.');
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  override details(): Record<string, unknown> {
    return { errors: this.errors };
  }
}
