import { isStoredInteger } from './integer-range.js';
import { InvalidQueryError } from '../errors/invalid-query-error.js';
import type { AttributeType } from './attribute-types.js';
import { isIsoTimestamp } from './iso-timestamp.js';

/** A text value (query string, form field) coerced to its attribute's type, ready to be bound in SQL. */
export type TypedValue = string | number | boolean;

const BOOLEANS: Record<string, boolean> = { true: true, false: false, 1: true, 0: false };

/** Reads `value` as the attribute type; undefined when it does not read as one. */
export function readTypedValue(type: AttributeType, value: string): TypedValue | undefined {
  switch (type) {
    case 'integer':
      return /^-?\d{1,10}$/.test(value) && isStoredInteger(Number(value)) ? Number(value) : undefined;
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined;
    case 'boolean':
      return Object.hasOwn(BOOLEANS, value) ? BOOLEANS[value] : undefined;
    case 'timestamp':
      return isIsoTimestamp(value) ? value : undefined;
    default:
      return value;
  }
}

/**
 * Reads `value` as the attribute type, or a 400 naming the parameter (`Invalid value for
 * filter[author_id]: abc.`); an empty value is said to be one, where it would print as nothing.
 */
export function parseTypedValue(parameter: string, type: AttributeType, value: string): TypedValue {
  const typed = readTypedValue(type, value);
  if (typed === undefined) throw new InvalidQueryError(`Invalid value for ${parameter}: ${value === '' ? 'it is empty' : value}.`);
  return typed;
}
