import { z } from 'zod';
import { ValidationError } from '../errors/validation-error.js';
import type { LooseRow } from '../models/loose-schema.js';

// `"$2.id"`: the field `id` of the result of operation 2 of the same request.
export const REFERENCE = /^\$(\d{1,3})\.([A-Za-z_][A-Za-z0-9_]*)$/;

export const resultReference = z.string().regex(REFERENCE);

interface Referring {
  id?: unknown;
  data?: Record<string, unknown>;
}

/**
 * Replaces the `"$N.field"` values of an operation's id and top-level data with the fields of
 * earlier results. A reference to this or a later operation, or to a field the result does not
 * have (or the caller may not read), is a 422 keyed by the operation.
 */
export function resolveReferences<Operation extends Referring>(operation: Operation, index: number, results: readonly LooseRow[]): Operation {
  const resolve = (path: string, value: unknown): unknown => {
    const match = typeof value === 'string' ? REFERENCE.exec(value) : null;
    if (!match) return value;
    const [reference, position, field] = match as unknown as [string, string, string];
    const key = `operations.${index}.${path}`;
    const result = Number(position) < index ? results[Number(position)] : undefined;
    if (!result) throw ValidationError.field(key, `The reference ${reference} must name an operation before operation ${index}.`);
    if (!Object.hasOwn(result, field)) throw ValidationError.field(key, `The reference ${reference} names a field that operation ${position} did not return.`);
    return result[field];
  };
  const resolved = { ...operation };
  if (operation.id !== undefined) resolved.id = resolve('id', operation.id);
  if (operation.data) resolved.data = Object.fromEntries(Object.entries(operation.data).map(([name, value]) => [name, resolve(`data.${name}`, value)]));
  return resolved;
}
