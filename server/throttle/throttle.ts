import { countHits, forgetAndForgive, rateLimitKey, sweepEndedWindows } from '../db/repositories/rate-limits.js';
import type { Executor } from '../db/repositories/executor.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { TooManyAttemptsError } from '../errors/too-many-attempts-error.js';
import type { ThrottledAction, ThrottleLimits } from './throttle-limits.js';

/** Who attempts: the email the request names and the client's address (as the proxy setting reads it). */
export interface Attempter {
  email: string;
  address: string;
}

const WHAT: Record<ThrottledAction, string> = {
  login: 'login attempts',
  register: 'registration attempts',
  passwordRecover: 'password reset requests',
  passwordReset: 'password reset attempts',
  invitationSend: 'invitations',
};

// Ended windows are deleted after this many attempts counted by one process.
const SWEEP_EVERY = 1000;

/** What time it is for the throttle; unset, the database's clock decides, so instances agree. */
export type ThrottleClock = () => Date;

/**
 * Attempt limits kept in PostgreSQL, so every instance of the service counts against the same
 * ones. Sliding windows: no span of a rule's decaySeconds holds more than its maxAttempts
 * admitted attempts, wherever the span starts. An attempt is counted before the work it guards,
 * whether or not the email is known, so the answer (and the 429) never tells a known email from
 * an unknown one.
 */
export class Throttle {
  private counted = 0;

  constructor(
    private readonly limits: ThrottleLimits,
    private readonly clock?: ThrottleClock,
  ) {}

  private keys(action: ThrottledAction, { email, address }: Attempter) {
    const normalized = email.trim().toLowerCase();
    // Login's email window is per email and address: see DEFAULT_THROTTLE_LIMITS.
    const emailKey = action === 'login' ? rateLimitKey(action, 'email', normalized, address) : rateLimitKey(action, 'email', normalized);
    return { email: emailKey, address: rateLimitKey(action, 'address', address) };
  }

  /**
   * Counts one attempt on the email's and the address's windows; throws a 429 naming the longer
   * wait when either already holds its limit. Runs on `db`: the pool, within the request's
   * `deadline` (`request-read.ts`), or a request's transaction when only committed attempts should count.
   */
  async attempt(db: Executor, action: ThrottledAction, attempter: Attempter, deadline?: RequestDeadline): Promise<void> {
    const keys = this.keys(action, attempter);
    const limits = this.limits[action];
    const at = this.clock?.();
    const counts = await countHits(
      db,
      [
        { key: keys.email, windowSeconds: limits.email.decaySeconds, maxAttempts: limits.email.maxAttempts },
        { key: keys.address, windowSeconds: limits.address.decaySeconds, maxAttempts: limits.address.maxAttempts },
      ],
      at,
      deadline,
    );
    if ((this.counted = (this.counted + 1) % SWEEP_EVERY) === 0) await sweepEndedWindows(db, at, deadline);
    const waits = counts.filter((count) => count.refused).map((count) => count.retryAfter);
    if (waits.length > 0) throw new TooManyAttemptsError(WHAT[action], Math.max(...waits));
  }

  /** A successful login clears its email window and takes its attempt back from the address's. */
  async succeeded(db: Executor, action: ThrottledAction, attempter: Attempter, deadline?: RequestDeadline): Promise<void> {
    const keys = this.keys(action, attempter);
    await forgetAndForgive(db, keys.email, keys.address, deadline);
  }
}
