import { ConfigError } from '../errors/config-error.js';
import { MAX_INTEGER } from '../models/integer-range.js';

/**
 * A setting PostgreSQL takes or keeps as an `integer` (a statement_timeout, a rate_limits
 * counter's window and attempts): a whole number from 1 to an int4's largest. Past it, every
 * statement that carries it fails, and with it every request that needs one, so it is refused at
 * start. `unit` names what it counts.
 */
export function storedWholeNumber(name: string, value: number, unit?: string): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_INTEGER) {
    throw new ConfigError(`${name} must be a whole number${unit ? ` of ${unit}` : ''} from 1 to ${MAX_INTEGER}.`);
  }
  return value;
}
