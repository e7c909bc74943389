import { describe, expect, it } from 'vitest';
import { conditionText } from '../../server/cli/condition-text.js';

// Issue 35: `gatehouse explain` prints a list's compiled condition on its `records:` line.

describe('conditionText', () => {
  it.each([
    [{ op: 'or', conditions: [{ op: 'eq', attribute: 'status', value: 'published' }, { op: 'eq', attribute: 'author_id', value: 6 }] }, 'status = "published" or author_id = 6'],
    [
      { op: 'and', conditions: [{ op: 'or', conditions: [{ op: 'lt', attribute: 'score', value: 3 }, { op: 'null', attribute: 'score' }] }, { op: 'not', condition: { op: 'in', attribute: 'status', values: ['a', 'b'] } }] },
      '(score < 3 or score is null) and not status in ("a", "b")',
    ],
    [{ op: 'every', relation: 'comments', condition: { op: 'ne', attribute: 'flagged', value: true } }, 'every comments (flagged != true)'],
    [{ op: 'none', relation: 'comments', condition: { op: 'true' } }, 'none comments (every record)'],
    [{ op: 'nin', attribute: 'title', values: ['%_"'] }, 'title not in ("%_\\"")'],
    [{ op: 'not_null', attribute: 'published_at' }, 'published_at is not null'],
  ] as const)('%j reads %s', (node, text) => {
    expect(conditionText(node)).toBe(text);
  });
});
