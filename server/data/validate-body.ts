import type { ZodType } from 'zod';
import type { LooseRow } from '../query/loose-schema.js';
import { BadQueryError, ValidationFailedError } from './data-errors.js';

/** A body must be a JSON object before any field rule can apply to it. */
export function requireObjectBody(body: unknown): LooseRow {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadQueryError('The request body must be a JSON object');
  return body as LooseRow;
}

/** Runs the model's schema; failures become 422 `errors` keyed by field, prefixed for nested bodies. */
export function validateBody(schema: ZodType | undefined, body: LooseRow, prefix = ''): LooseRow {
  if (!schema) return body;
  const result = schema.safeParse(body);
  if (result.success) return result.data as LooseRow;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    const missing = issue.code === 'invalid_type' && issue.path.length > 0 && body[String(issue.path[0])] === undefined;
    (errors[`${prefix}${field}`] ??= []).push(missing ? `The ${field} field is required.` : issue.message);
  }
  throw new ValidationFailedError(errors);
}
