import { describe, expect, it } from 'vitest';
import { PageCursors } from '../../../server/listing/page-cursor.js';

// A cursor's length is all a caller can read of it: it must not tell a hidden sort value's length.
const binding = 'staff|without|salary:asc,id:asc';

describe('PageCursors', () => {
  it('writes a short and a long value of the sort key as cursors of one length', () => {
    const cursors = new PageCursors('secret');
    expect(cursors.encode(binding, ['9', '1']).length).toBe(cursors.encode(binding, ['1250000.75', '1']).length);
  });

  it('reads the cursors of another instance with the same secret only', () => {
    const cursor = new PageCursors('secret').encode(binding, ['1250000.75', '1']);
    expect(new PageCursors('secret').decode(binding, cursor)).toEqual(['1250000.75', '1']);
    expect(() => new PageCursors('another secret').decode(binding, cursor)).toThrow('Invalid cursor');
  });
});
