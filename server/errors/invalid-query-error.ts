/**
 * A query string a listing or a record cannot be read with: an unknown filter, sort, field, scope,
 * page or cursor. The routing layer answers it 400 with its message.
 */
export class InvalidQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}
