import { InspectFooter, PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory, VerifyFactory, type PublicKey } from 'paseto/v4/public';
import { footerKeyId } from '@gatehouse/engine/wire';
import { UnauthenticatedError } from './errors.js';
import type { HttpClient } from './http-client.js';

// Tokens are PASETO v4.public (Ed25519), checked with the `paseto` package, like the server signs them.
const v4 = new PublicProtocol(VerifyFactory, ImportPublicKeyFactory);

/** What a genuine, unexpired token says. Whether its session still stands only Gatehouse knows. */
export interface TokenCaller {
  userId: number;
  sessionId: string;
  /** The route group the session was started in; null outside any group. */
  routeGroup: string | null;
  expiresAt: Date;
}

/** A published verification key: `GET {baseURL}/public-key` lists them with their ids. */
interface PublishedKey {
  id: string | null;
  key: PublicKey;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// A token naming a key not yet known may follow a rotation: the keys are fetched again, at most this
// often, so made-up key ids cannot turn into a flood of requests to Gatehouse.
const REFETCH_AFTER_MS = 1_000;

function callerOf(claims: Record<string, unknown>): TokenCaller | null {
  const userId = Number(claims.sub);
  const { sid, grp, exp } = claims;
  if (!Number.isSafeInteger(userId) || userId <= 0 || typeof sid !== 'string' || !UUID.test(sid)) return null;
  if ((grp !== null && typeof grp !== 'string') || typeof exp !== 'string') return null;
  return { userId, sessionId: sid, routeGroup: grp, expiresAt: new Date(exp) };
}

/**
 * Offline token checks against Gatehouse's published keys (or the ones given): the footer's key
 * id picks the key, so a rotation's previous key keeps verifying the tokens it signed while
 * Gatehouse still lists it.
 */
export class TokenVerifier {
  private keys: Promise<PublishedKey[]> | undefined;
  private fetchedAt = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly givenKeys: readonly string[] | undefined,
  ) {}

  async verify(token: string): Promise<TokenCaller> {
    const kid = footerKeyId(() => InspectFooter(token));
    let keys = await this.currentKeys();
    if (kid !== null && !keys.some((key) => key.id === kid) && this.givenKeys === undefined && Date.now() - this.fetchedAt > REFETCH_AFTER_MS) {
      keys = await this.currentKeys(true);
    }
    const candidates = keys.filter((key) => kid === null || key.id === null || key.id === kid);
    for (const { key } of candidates) {
      const caller = await v4.Verify(key, token).then(
        (result) => callerOf(result.claims),
        () => null,
      );
      if (caller) return caller;
    }
    throw new UnauthenticatedError('The token is not genuine or has expired.');
  }

  private currentKeys(refresh = false): Promise<PublishedKey[]> {
    if (this.keys === undefined || refresh) {
      this.fetchedAt = Date.now();
      const loading = this.load();
      // A failed fetch is tried again on the next token rather than remembered.
      loading.catch(() => (this.keys = undefined));
      this.keys = loading;
    }
    return this.keys;
  }

  private async load(): Promise<PublishedKey[]> {
    const published =
      this.givenKeys?.map((key) => ({ id: null, key })) ??
      ((await this.http.json({ method: 'GET', path: 'public-key' })).body as { keys: { id: string; key: string }[] }).keys;
    return Promise.all(published.map(async ({ id, key }) => ({ id, key: await v4.ImportPublicKey(key as `k4.public.${string}`) })));
  }
}
