/**
 * Login throttling: at most `maxFailures` failed logins per email and per client address within
 * a sliding window. An attempt reserves its place before it is checked (the check waits on the
 * database and bcrypt), so however many guesses arrive at once, at most `maxFailures` of them
 * are checked; a successful attempt gives its place back. Counters live in memory (one process); the oldest keys are evicted when
 * too many are tracked, so an attacker cannot grow memory without bound.
 */

/** Options of the throttle. */
export interface ThrottleOptions {
  readonly maxFailures: number;
  readonly windowSeconds: number;
  /** Most keys tracked at once; defaults to 100 000. */
  readonly maxKeys?: number;
  /** Clock in milliseconds; tests move it. */
  readonly now?: () => number;
}

/** The answer to `reserve`: the attempt may go on, or must wait `retryAfter` seconds. */
export type Reservation =
  | { readonly granted: true /** The attempt succeeded: it no longer counts. */; release(): void }
  | { readonly granted: false; readonly retryAfter: number };

/** Counts failed logins and says when a key must wait. */
export interface LoginThrottle {
  /**
   * Counts an attempt against every key as a failure before it is checked, in the same step
   * as the check that the keys are under the limit; refuses it when one is not.
   */
  reserve(keys: readonly string[]): Reservation;
  /** Seconds until every key may try again; 0 when none is blocked. */
  retryAfter(keys: readonly string[]): number;
  /** Counts one failure against every key. */
  recordFailure(keys: readonly string[]): void;
  /** Forgets the failures of a key (after a successful login for that email). */
  reset(key: string): void;
}

/** Throttle key of an email. */
export function emailKey(email: string): string {
  return `email:${email.toLowerCase()}`;
}

/** Throttle key of a client address. */
export function addressKey(address: string): string {
  return `addr:${address}`;
}

/** Creates an in-memory sliding-window throttle. */
export function createLoginThrottle(options: ThrottleOptions): LoginThrottle {
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  const maxKeys = options.maxKeys ?? 100_000;
  const failures = new Map<string, number[]>();

  /** Failure times of a key still inside the window (drops the rest). */
  function recent(key: string, at: number): number[] {
    const times = failures.get(key);
    if (!times) return [];
    const kept = times.filter((t) => at - t < windowMs);
    if (kept.length === 0) failures.delete(key);
    else if (kept.length !== times.length) failures.set(key, kept);
    return kept;
  }

  /** Takes one failure stamped `at` off each key (a reservation that succeeded). */
  function forget(keys: readonly string[], at: number): void {
    for (const key of keys) {
      const times = failures.get(key);
      const index = times?.indexOf(at) ?? -1;
      if (times && index >= 0) times.splice(index, 1);
    }
  }

  const throttle: LoginThrottle = {
    reserve(keys) {
      const retryAfter = throttle.retryAfter(keys);
      if (retryAfter > 0) return { granted: false, retryAfter };
      const at = now();
      throttle.recordFailure(keys);
      return { granted: true, release: () => forget(keys, at) };
    },
    retryAfter(keys) {
      const at = now();
      let waitMs = 0;
      for (const key of keys) {
        const times = recent(key, at);
        if (times.length < options.maxFailures) continue;
        // Blocked until enough old failures leave the window to get under the limit.
        const freeing = times[times.length - options.maxFailures] ?? at;
        waitMs = Math.max(waitMs, freeing + windowMs - at);
      }
      return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
    },
    recordFailure(keys) {
      const at = now();
      for (const key of keys) {
        const times = recent(key, at);
        times.push(at);
        failures.delete(key);
        failures.set(key, times.slice(-options.maxFailures));
        while (failures.size > maxKeys) {
          const oldest = failures.keys().next().value;
          if (oldest === undefined) break;
          failures.delete(oldest);
        }
      }
    },
    reset(key) {
      failures.delete(key);
    },
  };
  return throttle;
}
