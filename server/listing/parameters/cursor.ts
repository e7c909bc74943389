import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { MAX_CURSOR_LENGTH } from '../../models/request-limits.js';
import { documented, type QueryParameter } from '../query-parameter.js';

/**
 * `cursor=`: keyset pagination, the rows after the position an earlier page's `X-Next-Cursor`
 * named. Read after `page`: a cursor is a position of its own, so a page number beside it is a 400.
 */
export const cursor: QueryParameter = {
  name: 'cursor',
  keyed: 'never',
  read: ([entry], _target, request) => {
    if (request.page !== 1) throw new InvalidQueryError('page and cursor cannot be combined: a cursor is a position of its own.');
    if (entry!.value === '') throw new InvalidQueryError('cursor must not be empty.');
    return { cursor: entry!.value };
  },
  document: () => [
    documented('cursor', 'Keyset pagination: the value of a previous page’s `X-Next-Cursor`; stable under inserts, bound to the model and sort.', {
      type: 'string',
      maxLength: MAX_CURSOR_LENGTH,
    }),
  ],
};
