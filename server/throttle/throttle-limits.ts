import { storedWholeNumber } from '../config/stored-whole-number.js';

export interface ThrottleRule {
  /** Attempts allowed within any span of decaySeconds; one more is refused with 429 until the oldest leaves it. */
  maxAttempts: number;
  /** Length of the sliding window. */
  decaySeconds: number;
}

/** Each action is limited per email and per client address, whichever runs out first. */
export interface ActionLimits {
  email: ThrottleRule;
  address: ThrottleRule;
}

export const THROTTLED_ACTIONS = ['login', 'register', 'passwordRecover', 'passwordReset', 'invitationSend'] as const;
export type ThrottledAction = (typeof THROTTLED_ACTIONS)[number];

export type ThrottleLimits = Record<ThrottledAction, ActionLimits>;
export type ThrottleConfig = { [A in ThrottledAction]?: Partial<ActionLimits> };

const rule = (maxAttempts: number, decaySeconds: number): ThrottleRule => ({ maxAttempts, decaySeconds });

/**
 * Login counts failures (a success takes its attempt back); the others count every attempt that
 * passes validation. Login's email limit is per email and address, so nobody can lock a user out
 * from elsewhere; recover's is per email alone, so nobody can flood a mailbox from many addresses.
 */
export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  login: { email: rule(5, 60), address: rule(50, 60) },
  register: { email: rule(10, 600), address: rule(30, 600) },
  passwordRecover: { email: rule(5, 900), address: rule(30, 900) },
  passwordReset: { email: rule(10, 900), address: rule(30, 900) },
  invitationSend: { email: rule(5, 3600), address: rule(100, 3600) },
};

// Each rule is kept with its counter in rate_limits.
const checked = (name: string, value: ThrottleRule): ThrottleRule => ({
  maxAttempts: storedWholeNumber(`${name}.maxAttempts`, value.maxAttempts),
  decaySeconds: storedWholeNumber(`${name}.decaySeconds`, value.decaySeconds),
});

/** The defaults with the configured rules laid over them, each checked. */
export function resolveThrottleLimits(config: ThrottleConfig = {}): ThrottleLimits {
  const entries = THROTTLED_ACTIONS.map((action) => {
    const limits = { ...DEFAULT_THROTTLE_LIMITS[action], ...config[action] };
    return [action, { email: checked(`throttle.${action}.email`, limits.email), address: checked(`throttle.${action}.address`, limits.address) }];
  });
  return Object.fromEntries(entries) as ThrottleLimits;
}
