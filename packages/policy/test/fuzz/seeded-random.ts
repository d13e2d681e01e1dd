/**
 * A small seeded random source (mulberry32). Every fuzz input gets its own source derived
 * from the run's seed and the input's index, so any one input can be rebuilt alone.
 */

/** Random choices drawn from one 32-bit state. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The source of input `index` of the run with `seed`. */
  static forInput(seed: number, index: number): SeededRandom {
    // Mixes the two numbers so that neighbouring indexes start far apart.
    let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16), 0x27d4eb2d);
    return new SeededRandom(h ^ (h >>> 15));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}
