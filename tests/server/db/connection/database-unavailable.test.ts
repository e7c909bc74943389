import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../../server/db/connection/database-unavailable.js';
import { ConnectionLostError } from '../../../../server/errors/connection-lost-error.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['refused connection', withCode('ECONNREFUSED')],
    ['administrator shutdown', withCode('57P01')],
    ['server starting up', withCode('57P03')],
    ['connection exception class', withCode('08006')],
    ['dropped connection', new Error('Connection terminated unexpectedly')],
    ["a command's own connection ended by the server", new ConnectionLostError('terminating connection due to administrator command')],
    ['every address refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['a non-error', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
