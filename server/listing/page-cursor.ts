import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { InvalidQueryError } from '../errors/invalid-query-error.js';
import { MAX_CURSOR_LENGTH } from '../models/request-limits.js';

/** The values of a row's sort key, as text: exactly as PostgreSQL compares them. */
export type KeyValues = (string | null)[];

const MAC_BYTES = 16;

export class InvalidCursorError extends InvalidQueryError {
  constructor() {
    super('Invalid cursor: it was altered, or it belongs to another model or sort.');
  }
}

/**
 * Keyset cursors (`?cursor=`, `X-Next-Cursor`): the sort key of a page's last row, bound to the
 * model and the sort it was read in and signed with a key derived from the token signing key, so
 * every instance of a deployment reads the others' cursors and a client can neither forge one
 * nor carry one to another sort. Opaque to clients; the values inside are still only a position,
 * never an authority: the next page goes through every gate like the first.
 */
export class PageCursors {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', 'gatehouse page cursor', 32));
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC_BYTES);
  }

  encode(binding: string, values: KeyValues): string {
    const payload = Buffer.from(JSON.stringify({ b: binding, v: values })).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The key values of a cursor made by encode with the same binding; anything else is a 400. */
  decode(binding: string, cursor: string): KeyValues {
    const [payload, signature, ...rest] = cursor.length <= MAX_CURSOR_LENGTH ? cursor.split('.') : [];
    if (!payload || !signature || rest.length > 0) throw new InvalidCursorError();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== MAC_BYTES || !timingSafeEqual(given, this.mac(payload))) throw new InvalidCursorError();
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { b: unknown; v: unknown };
    const values = decoded.v;
    if (decoded.b !== binding || !Array.isArray(values) || !values.every((value) => value === null || typeof value === 'string')) {
      throw new InvalidCursorError();
    }
    return values as KeyValues;
  }
}
