import { InspectFooter, PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory, VerifyFactory, type PublicKey } from 'paseto/v4/public';
import { footerKeyId } from '@gatehouse/engine/wire';
import { SharedWork } from './abortable.js';
import { KEY_LIST, notTheAnswer } from './answer-shapes.js';
import type { Clocks } from './clocks.js';
import { GatehouseError, GatehouseOptionError, isUnavailable, UnauthenticatedError } from './errors.js';
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

/** The key list as last fetched, when its fetch began and until when it may be used (on the monotonic clock). */
interface KeyList {
  keys: PublishedKey[];
  fetchedAt: number;
  expiresAt: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// A token naming a key not yet known may follow a rotation: the keys are fetched again, at most this
// often (the token waiting for that fetch), so made-up key ids cannot turn into a flood of requests to Gatehouse.
const KEY_REFETCH_AFTER_MS = 1_000;
// How long a key list is used when Gatehouse sends it without a `max-age`: as long as it does send.
const DEFAULT_KEYS_MAX_AGE_S = 300;
const MAX_AGE = /(?:^|,)\s*max-age=(\d+)/i;

function callerOf(claims: Record<string, unknown>): TokenCaller | null {
  const userId = Number(claims.sub);
  const { sid, grp, exp } = claims;
  if (!Number.isSafeInteger(userId) || userId <= 0 || typeof sid !== 'string' || !UUID.test(sid)) return null;
  if ((grp !== null && typeof grp !== 'string') || typeof exp !== 'string') return null;
  return { userId, sessionId: sid, routeGroup: grp, expiresAt: new Date(exp) };
}

// A PASERK k4.public: an Ed25519 public key, its 32 bytes in unpadded base64url.
const PUBLIC_PASERK = /^k4\.public\.[A-Za-z0-9_-]{43}$/;

/**
 * The `publicKeys` option, or its error: anything but a list, or an empty one, verifies no token, and an entry that is no
 * k4.public key would fail every check; neither is echoed, since it may be a secret key by mistake.
 */
function givenKeysOption(keys: readonly string[] | undefined): readonly string[] | undefined {
  if (keys === undefined) return undefined;
  // A single key (from one environment variable, say) is no list: its characters would be read as keys.
  if (!Array.isArray(keys)) throw new GatehouseOptionError('publicKeys', 'The publicKeys option must be a list of k4.public keys; leave it out to fetch the keys from Gatehouse.');
  if (keys.length === 0) throw new GatehouseOptionError('publicKeys', 'The publicKeys option must list at least one k4.public key; leave it out to fetch the keys from Gatehouse.');
  const wrong = keys.findIndex((key) => typeof key !== 'string' || !PUBLIC_PASERK.test(key));
  if (wrong >= 0) throw new GatehouseOptionError('publicKeys', `Each of the publicKeys must be a PASERK k4.public key, and publicKeys[${wrong}] is not one.`);
  return keys;
}

const importKey = async (id: string | null, key: string): Promise<PublishedKey> => ({ id, key: await v4.ImportPublicKey(key as `k4.public.${string}`) });

/** Seconds the key list may be used for, from its `Cache-Control`. */
function maxAgeOf(cacheControl: string | undefined): number {
  const match = MAX_AGE.exec(cacheControl ?? '');
  return match ? Number(match[1]) : DEFAULT_KEYS_MAX_AGE_S;
}

/**
 * A refusal of the key list (a 401, 403 or 404: a proxy asking for credentials, or a `baseURL`
 * that is not Gatehouse's API) says nothing of the token it was fetched for: the keys cannot be
 * had, so the check is `unavailable` (a 503 from the middleware), not the token's 401 or a 404.
 */
function keysRefused(error: unknown): unknown {
  if (!(error instanceof GatehouseError) || isUnavailable(error)) return error;
  return new GatehouseError('unavailable', `Gatehouse answered ${error.status} instead of its key list (GET public-key): ${error.message}`, error.status, { cause: error });
}

/**
 * Offline token checks against Gatehouse's published keys (or the ones given): the footer's key
 * id picks the key, so a rotation's previous key keeps verifying the tokens it signed while
 * Gatehouse still lists it. The list is fetched again once its `max-age` has passed, and a key
 * Gatehouse no longer lists (retired, say because it leaked) then verifies nothing.
 */
export class TokenVerifier {
  private list: KeyList | undefined;
  private loading: SharedWork<KeyList> | undefined;
  /** When the last fetch began, whether it succeeded or not: the next for an unknown key id waits its turn after it. */
  private fetchedAt = -Infinity;

  private readonly givenKeys: readonly string[] | undefined;

  constructor(
    private readonly http: HttpClient,
    givenKeys: readonly string[] | undefined,
    private readonly clocks: Clocks,
  ) {
    this.givenKeys = givenKeysOption(givenKeys);
  }

  /**
   * The caller of `token`; a cancelled `signal` gives up waiting for the key list, which is still
   * fetched for other callers, and no longer once none waits for it.
   */
  async verify(token: string, signal?: AbortSignal): Promise<TokenCaller> {
    signal?.throwIfAborted();
    const kid = footerKeyId(() => InspectFooter(token));
    const asked = this.clocks.monotonic();
    let list = await this.currentKeys(signal);
    // Only a list fetched after the token arrived shows that its key is not Gatehouse's: an older
    // one may predate a rotation, so the token waits for the next fetch instead of being refused.
    while (kid !== null && this.givenKeys === undefined && !list.keys.some((key) => key.id === kid) && list.fetchedAt < asked) list = await this.currentKeys(signal, asked);
    const candidates = list.keys.filter((key) => kid === null || key.id === null || key.id === kid);
    for (const { key } of candidates) {
      const caller = await v4.Verify(key, token, { now: new Date(this.clocks.wall()) }).then(
        (result) => callerOf(result.claims),
        () => null,
      );
      if (caller) return caller;
    }
    throw new UnauthenticatedError('The token is not genuine or has expired.');
  }

  /**
   * The kept list while its max-age lasts (and, given `since`, if fetched no earlier), else the one
   * being fetched, else a new fetch: at once for a list that ran out, or none; for one that lacks a
   * token's key, once its turn after the last fetch comes, or the list runs out if sooner.
   */
  private currentKeys(signal: AbortSignal | undefined, since = -Infinity): Promise<KeyList> {
    const { list } = this;
    const now = this.clocks.monotonic();
    if (list && list.fetchedAt >= since && now < list.expiresAt) return Promise.resolve(list);
    if (this.loading === undefined) {
      const at = list === undefined ? now : Math.min(list.expiresAt, this.fetchedAt + KEY_REFETCH_AFTER_MS);
      // A failed or cancelled fetch is started afresh by the next token; an expired list is not used meanwhile.
      const loading: SharedWork<KeyList> = new SharedWork(
        (shared) =>
          this.clocks
            // A closed client ends the wait at once: the fetch it waits for would never go out.
            .until(at, AbortSignal.any([shared, this.http.closed]))
            .then(() => this.load(shared))
            .then((loaded) => (this.list = loaded)),
        () => {
          if (this.loading === loading) this.loading = undefined;
        },
      );
      this.loading = loading;
    }
    return this.loading.join(signal);
  }

  private async load(signal: AbortSignal): Promise<KeyList> {
    const fetchedAt = (this.fetchedAt = this.clocks.monotonic());
    const { keys, maxAge } = this.givenKeys !== undefined ? { keys: await Promise.all(this.givenKeys.map((key) => importKey(null, key))), maxAge: Infinity } : await this.published(signal);
    return { keys, fetchedAt, expiresAt: fetchedAt + maxAge * 1000 };
  }

  /** `GET {baseURL}/public-key`: the listed keys, and for how many seconds the list may be used. */
  private async published(signal: AbortSignal): Promise<{ keys: PublishedKey[]; maxAge: number }> {
    const response = await this.http.json({ method: 'GET', path: 'public-key', signal }, KEY_LIST).catch((error: unknown) => {
      throw keysRefused(error);
    });
    // A listed key that does not import is Gatehouse's broken answer, not a token's fault.
    const keys = await Promise.all(response.body.keys.map(({ id, key }) => importKey(id, key))).catch(() => {
      throw notTheAnswer(response.status, KEY_LIST);
    });
    return { keys, maxAge: maxAgeOf(response.headers['cache-control']) };
  }
}
