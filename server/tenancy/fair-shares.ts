import { shareSize, type ResolvedFairShare } from '../config/fair-share-config.js';
import type { CallerPresence } from '../db/connection/caller-presence.js';
import { CallerLeftError } from '../errors/caller-left-error.js';
import { FairShareExceededError, SHARES, type Share } from '../errors/fair-share-exceeded-error.js';
import { MAX_WAITING_PER_CALLER } from '../models/request-limits.js';

/** Who a request counts against; null where it has none (a guest has no user, a member no address, a group without tenancy no organization). */
export type ShareHolders = Record<Share, string | null>;

export interface FairShareStats {
  /** Requests that found a share full and waited, by the share they waited for. */
  readonly waited: Readonly<Record<Share, number>>;
  /** Requests still past a share when their wait ended, or past it with their caller's most requests waiting already: answered 429. */
  readonly refused: Readonly<Record<Share, number>>;
  /** Requests waiting now. */
  readonly waiting: number;
}

interface Waiter {
  holders: ShareHolders;
  /** Its place in the order of arrival: among the candidates of a freed place, the earliest is admitted first. */
  arrival: number;
  admit(): void;
}

const perShare = () => ({ organization: 0, user: 0, address: 0 });

/** Who sends a request, as the waiting are counted: its user, or a guest's address. */
const callerOf = ({ user, address }: ShareHolders) => (user !== null ? `user\0${user}` : `address\0${address ?? ''}`);

/**
 * Requests running per organization, per user and per guest address in this process, each holder kept within its
 * share of the pool, so no tenant can take every connection and leave the others 503s. A request
 * past a share waits for one of its holder's own requests to finish, first come first admitted,
 * and is refused once the wait is over. The organization's share is checked first. A request
 * whose client goes away while it waits leaves the line at once: it held nothing, and is never
 * admitted. A caller has at most MAX_WAITING_PER_CALLER requests waiting.
 *
 * A waiting request stands in the line of each of its holders, and a request that finishes looks
 * only at the lines of its own holders whose share it frees, in order of arrival across them: a
 * waiter goes in once each of its shares has room, and a finished request changes no other
 * holder's count. Other tenants' thousands waiting cost it nothing.
 */
export class FairShares {
  readonly #running: Record<Share, Map<string, number>> = { organization: new Map(), user: new Map(), address: new Map() };
  /** The waiting, by share and holder, each line in order of arrival. */
  readonly #lines: Record<Share, Map<string, Set<Waiter>>> = { organization: new Map(), user: new Map(), address: new Map() };
  #waiting = 0;
  #arrivals = 0;
  /** Requests waiting now, by caller (`callerOf`). */
  readonly #waitingBy = new Map<string, number>();
  readonly #waited = perShare();
  readonly #refused = perShare();

  constructor(private readonly shares: ResolvedFairShare) {}

  /** Runs fn within the holders' shares: at once while they have room, after a wait, or not at all (429, or the caller left). */
  async hold<T>(holders: ShareHolders, caller: CallerPresence, fn: () => Promise<T>): Promise<T> {
    // Admitted at once, as nearly every request is, it does not wait a turn of the microtask queue.
    const waiting = this.enter(holders, caller);
    if (waiting) await waiting;
    try {
      return await fn();
    } finally {
      this.leave(holders);
    }
  }

  stats(): FairShareStats {
    return { waited: { ...this.#waited }, refused: { ...this.#refused }, waiting: this.#waiting };
  }

  private fullShare(holders: ShareHolders): Share | null {
    for (const share of SHARES) {
      const holder = holders[share];
      if (holder !== null && this.full(share, holder)) return share;
    }
    return null;
  }

  private full(share: Share, holder: string): boolean {
    return (this.#running[share].get(holder) ?? 0) >= shareSize(this.shares, share);
  }

  private count(holders: ShareHolders, step: 1 | -1): void {
    for (const share of SHARES) {
      const holder = holders[share];
      if (holder === null) continue;
      const running = (this.#running[share].get(holder) ?? 0) + step;
      if (running === 0) this.#running[share].delete(holder);
      else this.#running[share].set(holder, running);
    }
  }

  /** Counts the holders in at once (null), or answers the wait for their turn. */
  private enter(holders: ShareHolders, caller: CallerPresence): Promise<void> | null {
    const full = this.fullShare(holders);
    if (full === null) {
      this.count(holders, 1);
      return null;
    }
    if (caller.left) return Promise.reject(new CallerLeftError());
    const sender = callerOf(holders);
    const waiting = this.#waitingBy.get(sender) ?? 0;
    if (waiting >= MAX_WAITING_PER_CALLER) return Promise.reject(this.refusal(full));
    this.#waitingBy.set(sender, waiting + 1);
    this.#waited[full] += 1;
    return new Promise((resolve, reject) => {
      const leaveLine = () => {
        clearTimeout(timeout);
        caller.unwatch(callerLeft);
        this.leaveLines(waiter);
        const still = this.#waitingBy.get(sender)! - 1;
        if (still === 0) this.#waitingBy.delete(sender);
        else this.#waitingBy.set(sender, still);
      };
      const waiter: Waiter = {
        holders,
        arrival: this.#arrivals++,
        admit: () => {
          leaveLine();
          this.count(holders, 1);
          resolve();
        },
      };
      const callerLeft = () => {
        leaveLine();
        reject(new CallerLeftError());
      };
      const timeout = setTimeout(() => {
        leaveLine();
        reject(this.refusal(this.fullShare(holders) ?? full));
      }, this.shares.waitMs);
      this.joinLines(waiter);
      caller.watch(callerLeft);
    });
  }

  /** The 429 of a request past `share`, counted. */
  private refusal(share: Share): FairShareExceededError {
    this.#refused[share] += 1;
    return new FairShareExceededError(share, shareSize(this.shares, share), Math.max(1, Math.ceil(this.shares.waitMs / 1000)));
  }

  /** Puts the waiter at the end of the line of each of its holders. */
  private joinLines(waiter: Waiter): void {
    this.#waiting += 1;
    for (const share of SHARES) {
      const holder = waiter.holders[share];
      if (holder === null) continue;
      const line = this.#lines[share].get(holder);
      if (line) line.add(waiter);
      else this.#lines[share].set(holder, new Set([waiter]));
    }
  }

  private leaveLines(waiter: Waiter): void {
    this.#waiting -= 1;
    for (const share of SHARES) {
      const holder = waiter.holders[share];
      if (holder === null) continue;
      const line = this.#lines[share].get(holder)!;
      line.delete(waiter);
      if (line.size === 0) this.#lines[share].delete(holder);
    }
  }

  private leave(holders: ShareHolders): void {
    // Every waiter waits on a full share. Only this request's holders change their counts, and of
    // them only one whose share was full can let in any of its line: one that had room before
    // kept none of its line waiting.
    const freed = this.#waiting === 0 ? [] : SHARES.filter((share) => holders[share] !== null && this.full(share, holders[share]));
    this.count(holders, -1);
    if (freed.length === 0) return;
    const candidates = freed.flatMap((share) => [...(this.#lines[share].get(holders[share]!) ?? [])]);
    // A waiter in two freed lines comes twice: the Set keeps its first place.
    for (const waiter of new Set(candidates.sort((a, b) => a.arrival - b.arrival))) {
      if (this.fullShare(waiter.holders) === null) waiter.admit();
    }
  }
}
