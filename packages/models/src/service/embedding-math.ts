// Vector math for embeddings: L2 normalisation.
import { LlmsrvError } from "../errors.js";

/** Scales a vector to unit L2 length (a zero vector stays zero). */
export function l2Normalize(v: readonly number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm === 0 ? [...v] : v.map((x) => x / norm);
}

/** Keeps the first `dimensions` values and re-normalises, as Ollama's `dimensions` does. */
export function truncateDimensions(v: readonly number[], dimensions: number | undefined): number[] {
  if (dimensions === undefined) return [...v];
  return l2Normalize(v.slice(0, dimensions));
}

/** Validates `dimensions` against the model's vector length. */
export function parseDimensions(value: unknown, length: number | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new LlmsrvError(
      "bad_request",
      `dimensions must be a positive integer, got ${JSON.stringify(value)}`,
    );
  }
  if (length !== undefined && value > length) {
    throw new LlmsrvError(
      "bad_request",
      `dimensions ${value} exceeds the model's embedding length ${length}`,
    );
  }
  return value;
}

/** Rejects vectors with NaN or infinite values. */
export function assertFinite(vectors: readonly number[][]): void {
  if (vectors.some((v) => v.some((x) => !Number.isFinite(x)))) {
    throw new LlmsrvError("internal", "embedding contains NaN or Inf values");
  }
}
