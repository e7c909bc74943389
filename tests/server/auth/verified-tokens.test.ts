import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from '../../../server/auth/verified-tokens.js';

const now = new Date('2026-01-01T00:00:00Z');
const claimsUntil = (expiresAt: Date) => ({ userId: 1, sessionId: '00000000-0000-4000-8000-000000000000', routeGroup: null, expiresAt });
const later = new Date(now.getTime() + 60_000);

describe('VerifiedTokens', () => {
  it('answers a remembered token until its expiry, and never after', () => {
    const memo = new VerifiedTokens(10);
    memo.remember('a', claimsUntil(later));
    expect(memo.get('a', now)?.expiresAt).toEqual(later);
    expect(memo.get('a', later)).toBeUndefined();
    expect(memo.get('a', now)).toBeUndefined();
  });

  it('keeps at most its capacity, forgetting the oldest first', () => {
    const memo = new VerifiedTokens(2);
    for (const token of ['a', 'b', 'c']) memo.remember(token, claimsUntil(later));
    expect(['a', 'b', 'c'].map((token) => memo.get(token, now) !== undefined)).toEqual([false, true, true]);
  });
});
