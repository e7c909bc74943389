import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { InvalidQueryError } from '../errors/invalid-query-error.js';
import { MAX_CURSOR_LENGTH } from '../models/request-limits.js';

/** The values of a row's sort key, as text: exactly as PostgreSQL compares them. */
export type KeyValues = (string | null)[];

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The key values are padded to a multiple of this, so a cursor's length tells a value's length only to within it. */
const PADDING_BYTES = 64;

export class InvalidCursorError extends InvalidQueryError {
  constructor() {
    super('Invalid cursor: it was altered, or it belongs to another model or sort.');
  }
}

/**
 * Keyset cursors (`?cursor=`, `X-Next-Cursor`): the sort key of a page's last row, encrypted
 * (AES-256-GCM) with the model and the sort it was read in as authenticated data, under a key
 * derived from the token signing key, so every instance of a deployment reads the others'
 * cursors. Encrypted, not only signed: the model's order may read a field hidden from the caller,
 * whose value a readable cursor would tell. A client can neither read, forge nor carry one to
 * another sort; the values inside are still only a position, never an authority: the next page
 * goes through every gate like the first.
 */
export class PageCursors {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', 'gatehouse page cursor encryption', 32));
  }

  encode(binding: string, values: KeyValues): string {
    const json = Buffer.from(JSON.stringify(values));
    // JSON.parse skips the trailing spaces.
    const padded = Buffer.alloc(Math.ceil(json.length / PADDING_BYTES) * PADDING_BYTES, ' ');
    json.copy(padded);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, iv, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(binding));
    return Buffer.concat([iv, cipher.update(padded), cipher.final(), cipher.getAuthTag()]).toString('base64url');
  }

  /** The key values of a cursor made by encode with the same binding; anything else is a 400. */
  decode(binding: string, cursor: string): KeyValues {
    const sealed = Buffer.from(cursor.length <= MAX_CURSOR_LENGTH ? cursor : '', 'base64url');
    // Buffer skips what is not base64url: only the cursor exactly as encode wrote it is one.
    if (sealed.length < IV_BYTES + TAG_BYTES || sealed.toString('base64url') !== cursor) throw new InvalidCursorError();
    const decipher = createDecipheriv(CIPHER, this.key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
      .setAAD(Buffer.from(binding))
      .setAuthTag(sealed.subarray(-TAG_BYTES));
    let plaintext: Buffer;
    try {
      plaintext = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, -TAG_BYTES)), decipher.final()]);
    } catch {
      throw new InvalidCursorError();
    }
    // Authenticated under this key and binding, so encode wrote it.
    return JSON.parse(plaintext.toString('utf8')) as KeyValues;
  }
}
