import { describe, expect, it } from 'vitest';
import { LoginThrottle, throttleKey } from '../../server/auth/login-throttle.js';

describe('LoginThrottle', () => {
  const key = throttleKey('User@Example.test', '10.0.0.1');

  it('keys on the lower-cased email and the address', () => {
    expect(key).toBe(throttleKey('user@example.test', '10.0.0.1'));
    expect(key).not.toBe(throttleKey('user@example.test', '10.0.0.2'));
  });

  it('locks a key after the allowed failures until its window has passed', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle({ maxAttempts: 2, decaySeconds: 60 }, () => now);
    throttle.recordFailure(key);
    expect(throttle.retryAfter(key)).toBeNull();
    throttle.recordFailure(key);
    expect(throttle.retryAfter(key)).toBe(60);
    now += 45_000;
    expect(throttle.retryAfter(key)).toBe(15);
    now += 15_000;
    expect(throttle.retryAfter(key)).toBeNull();
  });

  it('forgets a key on success', () => {
    const throttle = new LoginThrottle({ maxAttempts: 1, decaySeconds: 60 });
    throttle.recordFailure(key);
    expect(throttle.retryAfter(key)).not.toBeNull();
    throttle.clear(key);
    expect(throttle.retryAfter(key)).toBeNull();
  });
});
