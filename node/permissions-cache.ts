import { isAbortOf, SharedWork } from './abortable.js';
import { PERMISSIONS } from './answer-shapes.js';
import { GatehouseOptionError, isUnavailable } from './errors.js';
import type { HttpClient } from './http-client.js';

/** `GET {t}/user-role`: what the caller holds in one organization. */
export interface Permissions {
  role: string | null;
  /** Effective permissions; a leading `!` marks a denial. */
  permissions: string[];
  /** Per model, the model-level actions (index, store, trashed) as Gatehouse's policies decide them. */
  abilities: Record<string, Record<string, boolean>>;
  /** Packed CASL rules, for record conditions. */
  rules: unknown[];
  organization: { id: number; slug: string } | null;
}

interface Entry {
  etag: string | undefined;
  answer: Permissions;
  checkedAt: number;
}

// Sessions times organizations a service keeps answers for; the oldest make room for new ones.
const KEPT = 10_000;

const ON_UNAVAILABLE = ['fail', 'cached'] as const;

/**
 * What a kept permissions answer does once a call found Gatehouse unreachable or slow (and until
 * one reaches it again): `fail` (the default) stops using kept answers, so every call asks and
 * throws while Gatehouse is away; `cached` keeps using an answer while it is younger than `maxAge`.
 */
export type OnUnavailable = (typeof ON_UNAVAILABLE)[number];

/** `onUnavailable`, or the option's error: any other value (`'cache'`, say) would silently fail closed. */
function onUnavailableOption(onUnavailable: OnUnavailable): OnUnavailable {
  if (!ON_UNAVAILABLE.includes(onUnavailable)) {
    const allowed = ON_UNAVAILABLE.map((value) => JSON.stringify(value)).join(' or ');
    throw new GatehouseOptionError('onUnavailable', `The onUnavailable option must be ${allowed}, not ${JSON.stringify(onUnavailable)}.`);
  }
  return onUnavailable;
}

/** `maxAge`, or the option's error: a negative, NaN or non-number one would silently keep no answer. */
function maxAgeOption(maxAge: number): number {
  if (typeof maxAge !== 'number' || !(maxAge >= 0)) throw new GatehouseOptionError('maxAge', `The maxAge option must be a number of seconds of at least 0, not ${String(maxAge)}.`);
  return maxAge;
}

export interface PermissionsCacheOptions {
  /** Seconds a kept answer is used without asking, unless a call gives its own. */
  maxAge: number;
  onUnavailable: OnUnavailable;
}

/**
 * Permissions answers kept per session and organization and revalidated by ETag: within `maxAge`
 * seconds of the last check an answer is used as is, after it Gatehouse is asked again with
 * `If-None-Match` (a 304 costs no body). So a revocation or a permission change reaches a cached
 * answer within `maxAge`; with 0, every call asks. A question (token and organization) asked
 * already within `maxAge` and not answered yet is not asked again: the call waits for that answer,
 * giving up by its own signal.
 */
export class PermissionsCache {
  private readonly entries = new Map<string, Entry>();
  /** Questions being asked, by token and tenant path, with when each was asked. */
  private readonly asking = new Map<string, { work: SharedWork<Permissions>; askedAt: number }>();
  private readonly maxAge: number;
  private readonly onUnavailable: OnUnavailable;

  constructor(
    private readonly http: HttpClient,
    /** A monotonic clock, in milliseconds: an answer's age does not jump when the wall clock is stepped. */
    private readonly now: () => number,
    { maxAge, onUnavailable }: PermissionsCacheOptions,
  ) {
    this.maxAge = maxAgeOption(maxAge);
    this.onUnavailable = onUnavailableOption(onUnavailable);
  }

  /** The answer for the session and organization; `maxAge`, in seconds, is this call's own, if it gives one. */
  async get(token: string, sessionId: string, tenantPath: string, maxAge: number | undefined, signal?: AbortSignal): Promise<Permissions> {
    const maxAgeMs = (maxAge === undefined ? this.maxAge : maxAgeOption(maxAge)) * 1000;
    const key = `${sessionId} ${tenantPath}`;
    const kept = this.entries.get(key);
    const fresh = kept !== undefined && this.now() - kept.checkedAt < maxAgeMs;
    if (fresh && (this.onUnavailable === 'cached' || !this.http.unavailable)) return kept.answer;
    // Nothing is asked for a call cancelled already.
    signal?.throwIfAborted();
    const question = `${tenantPath} ${token}`;
    const now = this.now();
    const asking = this.asking.get(question);
    // An answer on its way is as old as its question, as a kept one is: within maxAge, it will do.
    if (asking !== undefined && now - asking.askedAt < maxAgeMs) return asking.work.join(signal);
    const started = {
      work: new SharedWork(
        (shared) => this.ask(key, token, tenantPath, now, shared),
        () => {
          if (this.asking.get(question) === started) this.asking.delete(question);
        },
      ),
      askedAt: now,
    };
    this.asking.set(question, started);
    return started.work.join(signal);
  }

  /**
   * `GET {t}/user-role`, revalidating the kept answer by its ETag, and the answer kept. An answer
   * is as old as the moment it was asked for (`askedAt`): one that arrives late still gives way to
   * a change within maxAge of it.
   */
  private async ask(key: string, token: string, tenantPath: string, askedAt: number, signal: AbortSignal): Promise<Permissions> {
    const kept = this.entries.get(key);
    let response;
    try {
      response = await this.http.json({ method: 'GET', path: `${tenantPath}/user-role`, token, ifNoneMatch: kept?.etag, signal }, PERMISSIONS);
    } catch (error) {
      // Kept through an outage, so its ETag revalidates it once Gatehouse is back, and through a
      // cancelled call, which says nothing about the answer other callers use.
      if (!isUnavailable(error) && !isAbortOf(error, signal)) this.entries.delete(key);
      throw error;
    }
    // A 304 answers only the If-None-Match of a kept answer.
    const entry = { etag: response.headers.etag, answer: response.status === 304 ? kept!.answer : response.body, checkedAt: askedAt };
    // An answer asked for after this one (with another token of the session) arrived first: it stands.
    if ((this.entries.get(key)?.checkedAt ?? -Infinity) > askedAt) return entry.answer;
    this.entries.delete(key);
    if (this.entries.size >= KEPT) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    return entry.answer;
  }
}
