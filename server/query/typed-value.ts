import { isStoredInteger } from '../db/integer-range.js';
import { BadRequestError } from '../http/errors/bad-request-error.js';
import type { AttributeType } from '../models/define-model.js';
import { isIsoTimestamp } from './iso-timestamp.js';

/** A query string value coerced to its attribute's type, ready to be bound in SQL. */
export type TypedValue = string | number | boolean;

/** Reads `value` as the attribute type, or a 400 naming the parameter (`Invalid value for filter[author_id]: abc.`). */
export function parseTypedValue(parameter: string, type: AttributeType, value: string): TypedValue {
  switch (type) {
    case 'integer':
      if (/^-?\d{1,10}$/.test(value) && isStoredInteger(Number(value))) return Number(value);
      break;
    case 'number':
      if (value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      break;
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      break;
    case 'timestamp':
      if (isIsoTimestamp(value)) return value;
      break;
    default:
      return value;
  }
  throw new BadRequestError(`Invalid value for ${parameter}: ${value}.`);
}
