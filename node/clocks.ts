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
}

/** The system's clocks, or for tests one given clock that drives both. */
export const clocksOf = (now?: () => number): Clocks => (now === undefined ? { wall: () => Date.now(), monotonic: () => performance.now() } : { wall: now, monotonic: now });
