import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../server/errors/not-found-error.js';
import { HttpError } from '../../../server/http/http-error.js';

const hasFrames = (error: Error) => (error.stack ?? '').includes('\n    at ');

describe('errors that answer a caller', () => {
  it('are built without a stack trace, and leave the stack traces of other errors alone', () => {
    const limit = Error.stackTraceLimit;
    expect(hasFrames(new NotFoundError('Not found.'))).toBe(false);
    expect(hasFrames(new HttpError(403, 'Forbidden.'))).toBe(false);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(hasFrames(new Error('a fault'))).toBe(true);
  });

  it('still name their kind and message', () => {
    const error = new NotFoundError('Not found.');
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toBe('NotFoundError: Not found.');
  });
});
