import type { z } from 'zod';
import { BodyNotObjectError } from '../errors/body-not-object-error.js';
import { ValidationError, type FieldErrors } from '../errors/validation-error.js';

/** Parses input with a zod schema; failures become a 422 listing messages per field, an input that is no object a 400. */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    // A whole input of the wrong kind has no fields to list: a top-level array, say.
    if (issue.path.length === 0 && issue.code === 'invalid_type' && issue.expected === 'object') throw new BodyNotObjectError();
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    (errors[field] ??= []).push(issue.message);
  }
  throw new ValidationError(errors);
}
