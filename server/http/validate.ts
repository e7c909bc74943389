import type { z } from 'zod';
import { ValidationError, type FieldErrors } from '../errors/validation-error.js';

/** Parses input with a zod schema; failures become a 422 listing messages per field. */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    (errors[field] ??= []).push(issue.message);
  }
  throw new ValidationError(errors);
}
