export interface LoginThrottleOptions {
  /** Failures allowed per email and IP address before logins are refused. */
  maxAttempts: number;
  /** How long the failures are remembered after the first one. */
  decaySeconds: number;
}

interface Window {
  failures: number;
  resetsAt: number;
}

// Above this many remembered keys, expired windows are swept on the next failure.
const SWEEP_THRESHOLD = 10_000;

/**
 * Counts failed logins per key (email + IP) in process memory: enough for a single instance;
 * several instances behind a balancer each count on their own.
 */
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly options: LoginThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the key may try again, or null while it may try now. */
  retryAfter(key: string): number | null {
    const window = this.current(key);
    if (!window || window.failures < this.options.maxAttempts) return null;
    return Math.max(1, Math.ceil((window.resetsAt - this.now()) / 1000));
  }

  recordFailure(key: string): void {
    if (this.windows.size > SWEEP_THRESHOLD) this.sweep();
    const window = this.current(key);
    if (window) window.failures += 1;
    else this.windows.set(key, { failures: 1, resetsAt: this.now() + this.options.decaySeconds * 1000 });
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetsAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private sweep(): void {
    for (const key of this.windows.keys()) this.current(key);
  }
}

export const throttleKey = (email: string, ip: string) => `${email.toLowerCase()}|${ip}`;
