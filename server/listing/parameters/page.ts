import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { MAX_PAGE, MAX_PER_PAGE } from '../../models/request-limits.js';
import { documented, type QueryEntry, type QueryParameter } from '../query-parameter.js';

function positiveInteger({ raw, value }: QueryEntry, max: number): number {
  const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= max)) throw new InvalidQueryError(`${raw} must be an integer between 1 and ${max}.`);
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
