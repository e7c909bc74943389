import { signToken, tokenKeyId, verifyToken, type TokenKeys, type VerificationKey } from './token-keys.js';
import type { TokenClaims } from './token-claims.js';
import { VerifiedTokens } from './verified-tokens.js';

export type { TokenClaims };

// Longer strings are not tokens this service issued; refusing them early bounds the work.
const MAX_TOKEN_LENGTH = 2048;
// A v4.public token's shape: its payload holds at least the 64-byte signature (86 base64url
// characters), and a footer may follow. Anything else is refused before paseto parses it, which
// costs a refused request more than the rest of its answer.
const V4_PUBLIC = /^v4\.public\.[\w-]{86,}(?:\.[\w-]*)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Enough for every client active within a token's lifetime on a busy instance, at ~0.5 KB each.
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs and verifies PASETO v4.public tokens. A valid signature proves only that this service
 * issued the token; whether its session still stands is the session store's answer.
 *
 * Tokens are signed with the current key and name it in their footer. Previous keys (a rotation's
 * old public halves) still verify the tokens they signed until those expire or the key is retired
 * from the list; a token from before footers existed is tried against every key.
 */
export class TokenService {
  private readonly verified = new VerifiedTokens(VERIFIED_TOKENS_KEPT);
  /** Every active verification key, the current one first. */
  readonly verificationKeys: readonly VerificationKey[];

  constructor(
    private readonly keys: TokenKeys,
    readonly ttlSeconds: number,
    previous: readonly VerificationKey[] = [],
    /** The time expiry is judged by: the wall clock, or a test's. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.verificationKeys = [keys.current, ...previous.filter((key) => key.id !== keys.current.id)];
  }

  get publicKey(): string {
    return this.keys.current.paserk;
  }

  /** Whole seconds: the token's `exp` claim and the session row must name the same instant. */
  expiryFrom(now: Date): Date {
    return new Date(Math.floor(now.getTime() / 1000) * 1000 + this.ttlSeconds * 1000);
  }

  sign(claims: TokenClaims): Promise<string> {
    return signToken(this.keys, {
      sub: String(claims.userId),
      sid: claims.sessionId,
      grp: claims.routeGroup,
      exp: claims.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token, this.now());
    if (known) return known;
    const claims = await this.checkSignature(token);
    if (claims) this.verified.remember(token, claims);
    return claims;
  }

  private async checkSignature(token: string): Promise<TokenClaims | null> {
    if (token.length > MAX_TOKEN_LENGTH || !V4_PUBLIC.test(token)) return null;
    const named = tokenKeyId(token);
    const candidates = named === null ? this.verificationKeys : this.verificationKeys.filter((key) => key.id === named);
    for (const key of candidates) {
      const claims = await this.claimsVerifiedBy(key, token);
      if (claims) return claims;
    }
    return null;
  }

  private async claimsVerifiedBy(key: VerificationKey, token: string): Promise<TokenClaims | null> {
    try {
      const claims = await verifyToken(key.publicKey, token, this.now());
      const userId = Number(claims.sub);
      const { sid, grp, exp } = claims;
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      if (typeof sid !== 'string' || !UUID.test(sid)) return null;
      if (grp !== null && typeof grp !== 'string') return null;
      if (typeof exp !== 'string') return null;
      return { userId, sessionId: sid, routeGroup: grp, expiresAt: new Date(exp) };
    } catch {
      return null;
    }
  }
}
