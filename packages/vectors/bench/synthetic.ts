/**
 * Synthetic embeddings for the benchmark: unit vectors scattered around a few hundred random
 * topic centres, so neighbourhoods look like real text embeddings (clustered, not uniform
 * noise). A seeded generator makes every run see the same data.
 */

/** Mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal sample (Box-Muller). */
function gaussian(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function normalize(v: Float64Array): number[] {
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Array.from(v, (x) => x * scale);
}

/** Generates clustered unit vectors: `next()` draws one around a random centre. */
export class ClusteredVectors {
  private readonly centres: Float64Array[];
  private readonly random: () => number;

  constructor(
    readonly dim: number,
    clusters: number,
    /** Spread of a point around its centre, relative to the centre's length. */
    private readonly spread: number,
    seed: number,
  ) {
    this.random = seededRandom(seed);
    this.centres = Array.from({ length: clusters }, () =>
      Float64Array.from({ length: dim }, () => gaussian(this.random)),
    );
  }

  next(): number[] {
    const centre = this.centres[Math.floor(this.random() * this.centres.length)] as Float64Array;
    const point = new Float64Array(this.dim);
    for (let i = 0; i < this.dim; i++)
      point[i] = (centre[i] as number) + this.spread * gaussian(this.random);
    return normalize(point);
  }
}
