import type { ZodType } from 'zod';
import { BodyNotObjectError } from '../errors/body-not-object-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { validate } from '../http/validate.js';
import type { LooseRow } from '../models/loose-schema.js';

/** A body must be a JSON object before any field rule can apply to it. */
export function requireObjectBody(body: unknown): LooseRow {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BodyNotObjectError();
  return body as LooseRow;
}

/** Runs the model's schema (422 with `errors` per field); a nested operation's fields carry its position as prefix. */
export function validateBody(schema: ZodType | undefined, body: LooseRow, prefix = ''): LooseRow {
  if (!schema) return body;
  try {
    return validate(schema, body) as LooseRow;
  } catch (error) {
    if (prefix === '' || !(error instanceof ValidationError)) throw error;
    throw new ValidationError(Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [`${prefix}${field}`, messages])));
  }
}
