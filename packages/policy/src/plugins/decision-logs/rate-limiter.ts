/**
 * A token bucket like Go's rate.Limiter as OPA sets it up for `max_decisions_per_second`:
 * `rate` tokens per second, a burst of max(1, rate), starting full.
 */
export class RateLimiter {
  private readonly burst: number;
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.burst = Math.max(1, ratePerSecond);
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Takes one token when there is one. */
  allow(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
