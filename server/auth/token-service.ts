import { signToken, verifyToken, type TokenKeys } from './token-keys.js';
import type { TokenClaims } from './token-claims.js';
import { VerifiedTokens } from './verified-tokens.js';

export type { TokenClaims };

// Longer strings are not tokens this service issued; refusing them early bounds the work.
const MAX_TOKEN_LENGTH = 2048;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Enough for every client active within a token's lifetime on a busy instance, at ~0.5 KB each.
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs and verifies PASETO v4.public tokens. A valid signature proves only that this service
 * issued the token; whether its session still stands is the session store's answer.
 */
export class TokenService {
  private readonly verified = new VerifiedTokens(VERIFIED_TOKENS_KEPT);

  constructor(
    private readonly keys: TokenKeys,
    readonly ttlSeconds: number,
  ) {}

  get publicKey(): string {
    return this.keys.publicPaserk;
  }

  /** Whole seconds: the token's `exp` claim and the session row must name the same instant. */
  expiryFrom(now: Date): Date {
    return new Date(Math.floor(now.getTime() / 1000) * 1000 + this.ttlSeconds * 1000);
  }

  sign(claims: TokenClaims): Promise<string> {
    return signToken(this.keys.secretKey, {
      sub: String(claims.userId),
      sid: claims.sessionId,
      grp: claims.routeGroup,
      exp: claims.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token, new Date());
    if (known) return known;
    const claims = await this.checkSignature(token);
    if (claims) this.verified.remember(token, claims);
    return claims;
  }

  private async checkSignature(token: string): Promise<TokenClaims | null> {
    if (token.length > MAX_TOKEN_LENGTH) return null;
    try {
      const claims = await verifyToken(this.keys.publicKey, token);
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
