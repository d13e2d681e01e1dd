// A seeded random LoRA adapter for a generated (demo-shaped) model, written as llama.cpp's GGUF.
import { type LoraPair, writeLoraFile } from "../gguf/lora-writer.js";
import { DEMO_MODEL_SHAPE, type DemoModelShape } from "./demo-model.js";
import { prng } from "./demo-weights.js";

/** The weights of a llama block an adapter may change. */
export type DemoLoraTarget =
  | "attn_q"
  | "attn_k"
  | "attn_v"
  | "attn_output"
  | "ffn_gate"
  | "ffn_up"
  | "ffn_down";

/** What adapter to make, and for which model shape. */
export interface DemoLoraOptions {
  /** The base model's shape (DemoModelShape fields; the demo's by default). */
  shape?: Partial<DemoModelShape>;
  rank?: number;
  /** `adapter.lora.alpha`; the update is scaled by alpha / rank. */
  alpha?: number;
  seed?: number;
  targets?: readonly DemoLoraTarget[];
  /** `general.architecture` (llama; another only to make an adapter that must not fit). */
  architecture?: string;
}

const ALL_TARGETS: readonly DemoLoraTarget[] = [
  "attn_q",
  "attn_k",
  "attn_v",
  "attn_output",
  "ffn_gate",
  "ffn_up",
  "ffn_down",
];

/** [nIn, nOut] of each target weight in a model of this shape (ggml order). */
function targetDims(shape: DemoModelShape, target: DemoLoraTarget): [number, number] {
  const e = shape.embeddingLength;
  const kv = (e / shape.headCount) * shape.headCountKv;
  const ff = shape.feedForwardLength;
  const dims: Record<DemoLoraTarget, [number, number]> = {
    attn_q: [e, e],
    attn_k: [e, kv],
    attn_v: [e, kv],
    attn_output: [e, e],
    ffn_gate: [e, ff],
    ffn_up: [e, ff],
    ffn_down: [ff, e],
  };
  return dims[target];
}

/** Uniform values in ±scale from a seeded generator. */
function randomValues(count: number, scale: number, next: () => number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = (next() * 2 - 1) * scale;
  return out;
}

/**
 * The factor pairs of a random adapter: A's rows have unit expected length, so A x keeps
 * the size of a normalised input; B's values are of order one, so with alpha / rank of a
 * few units the update is as large as the demo's own attention output and changes which
 * token wins. The same options always give the same values.
 */
export function demoLoraPairs(options: DemoLoraOptions = {}): LoraPair[] {
  const shape: DemoModelShape = { ...DEMO_MODEL_SHAPE, ...options.shape };
  const rank = options.rank ?? 4;
  const next = prng(options.seed ?? 1);
  const pairs: LoraPair[] = [];
  for (let block = 0; block < shape.blockCount; block++) {
    for (const target of options.targets ?? ALL_TARGETS) {
      const [nIn, nOut] = targetDims(shape, target);
      pairs.push({
        base: `blk.${block}.${target}.weight`,
        nIn,
        nOut,
        rank,
        a: randomValues(nIn * rank, Math.sqrt(3 / nIn), next),
        b: randomValues(rank * nOut, 1, next),
      });
    }
  }
  return pairs;
}

/** Writes a random LoRA adapter GGUF for a generated model (see demoLoraPairs). */
export async function writeDemoLora(path: string, options: DemoLoraOptions = {}): Promise<void> {
  const rank = options.rank ?? 4;
  await writeLoraFile(
    path,
    {
      architecture: options.architecture ?? "llama",
      alpha: options.alpha ?? rank * 8,
      name: `${options.shape?.name ?? DEMO_MODEL_SHAPE.name}-lora`,
    },
    demoLoraPairs(options),
  );
}
