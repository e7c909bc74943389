import type { TokenClaims } from './token-claims.js';

/**
 * The claims of tokens whose signatures were already checked, so a client's every request does
 * not pay for an Ed25519 verification again. Safe because a signature check is a pure function
 * of the token's bytes and the service's key; expiry is still tested on every use, and whether
 * the session stands is the session store's answer, never this memo's. Bounded: the oldest
 * entries make room for new ones.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, TokenClaims>();

  constructor(private readonly capacity: number) {}

  /** The memoized claims, while they are unexpired at `now`. */
  get(token: string, now: Date): TokenClaims | undefined {
    const claims = this.entries.get(token);
    if (claims === undefined) return undefined;
    if (claims.expiresAt <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return claims;
  }

  remember(token: string, claims: TokenClaims): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, Object.freeze(claims));
  }
}
