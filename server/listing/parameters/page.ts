import { z } from 'zod';
import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { MAX_PAGE, MAX_PER_PAGE } from '../../models/request-limits.js';
import { documented, type QueryEntry, type QueryParameter } from '../query-parameter.js';

/** `value` as a whole number of 1..max, written in digits; undefined when it is not one. */
function inRange(value: string, max: number): number | undefined {
  const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return number >= 1 && number <= max ? number : undefined;
}

/** The 400 of a `page` or `per_page` outside its bounds, naming them. */
const outOfRange = (name: string, max: number) => `${name} must be an integer between 1 and ${max}.`;

function positiveInteger({ raw, value }: QueryEntry, max: number): number {
  const number = inRange(value, max);
  if (number === undefined) throw new InvalidQueryError(outOfRange(raw, max));
  return number;
}

/** `page=n`: which page, from 1. */
export const page: QueryParameter = {
  name: 'page',
  keyed: 'never',
  read: ([entry]) => ({ page: positiveInteger(entry!, MAX_PAGE) }),
  document: () => [documented('page', 'Page number, from 1.', { type: 'integer', minimum: 1, maximum: MAX_PAGE })],
};

/** `per_page=n`: rows per page, up to the server's limit; the model sets the default. */
export const perPage: QueryParameter = {
  name: 'per_page',
  keyed: 'never',
  read: ([entry]) => ({ perPage: positiveInteger(entry!, MAX_PER_PAGE) }),
  document: (model) => [
    documented('per_page', `Rows per page, 1..${MAX_PER_PAGE}; ${model.perPage} by default.`, { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE }),
  ],
};

// A refusal is a custom issue carrying the index's message, which `invalidQuery` answers as is.
const pageNumber = (name: string, max: number) =>
  z.string().transform((value, context) => {
    const number = inRange(value, max);
    if (number !== undefined) return number;
    context.issues.push({ code: 'custom', message: outOfRange(name, max), input: value });
    return z.NEVER;
  });

/**
 * `page` and `per_page` of the lists read with zod (the organization's audit trail, the decision
 * log): an index's bounds and 400s, 25 rows by default.
 */
export const pagingQuery = {
  page: pageNumber('page', MAX_PAGE).default(1),
  per_page: pageNumber('per_page', MAX_PER_PAGE).default(25),
};
