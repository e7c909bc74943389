import { onAbort } from './abortable.js';

/**
 * The two clocks of a client: token expiry is a moment on the wall clock, but how old a kept
 * answer is must not jump when the wall clock is stepped (NTP, a VM resumed, an operator), or
 * a kept answer would live for hours or expire at once.
 */
export interface Clocks {
  /** Milliseconds since the epoch. */
  wall(): number;
  /** Milliseconds from an arbitrary start, never stepped: for ages only. */
  monotonic(): number;
  /** Resolves once `monotonic()` reads `at` or later; rejects with the signal's reason once it aborts. */
  until(at: number, signal: AbortSignal): Promise<void>;
}

// A clock given for tests moves when the test moves it, which no timer sees: a wait looks at it this often.
const GIVEN_CLOCK_LOOK_MS = 5;

/** Waits on `monotonic`, looking at it again when a timer says the wait is over, and at least every `lookMs`. */
const untilOn =
  (monotonic: () => number, lookMs: number) =>
  (at: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      let timer: NodeJS.Timeout | undefined;
      const stop = onAbort(signal, () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
      // A timer may fire a fraction of a millisecond before the clock reads `at`: it is looked at again.
      const look = () => {
        const left = at - monotonic();
        if (left > 0) return void (timer = setTimeout(look, Math.min(left, lookMs)));
        stop();
        resolve();
      };
      look();
    });

/** The system's clocks, or for tests one given clock that drives both, and the waits. */
export function clocksOf(now?: () => number): Clocks {
  if (now !== undefined) return { wall: now, monotonic: now, until: untilOn(now, GIVEN_CLOCK_LOOK_MS) };
  const monotonic = () => performance.now();
  return { wall: () => Date.now(), monotonic, until: untilOn(monotonic, Infinity) };
}
