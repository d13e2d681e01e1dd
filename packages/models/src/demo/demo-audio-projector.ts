// A tiny audio projector GGUF (llama.cpp's "qwen2a" whisper-style encoder) with seeded random weights.
import { GgmlTensorType } from "../gguf/gguf-format.js";
import {
  type GgufTensorSpec,
  type GgufTypedValue,
  gguf,
  writeGgufFile,
} from "../gguf/gguf-writer.js";
import { encodeTensor } from "../gguf/tensor-encoding.js";
import { DEMO_LICENSE, DEMO_MODEL_SHAPE } from "./demo-model.js";
import { DEMO_TOKEN_BIAS, prng } from "./demo-weights.js";

/**
 * llama.cpp's mtmd reads a projector GGUF ("mmproj") beside the text model. Of the audio
 * projector types it knows, "qwen2a" (Qwen2-Audio) needs the fewest parts: a whisper encoder
 * (two 1-D convolutions over the log-mel spectrogram, learned positions, pre-norm transformer
 * blocks, a final norm), a 2x average pool, then one linear layer into the text model's
 * embedding. Its audio is 16 kHz mono; every started 30 s window (3000 mel frames) becomes
 * DEMO_AUDIO_TOKENS_PER_WINDOW embeddings, framed by the text "<|audio_bos|>" and "<|audio_eos|>".
 */

/** `clip.projector_type` written: llama.cpp's name for the Qwen2-Audio projector. */
export const DEMO_AUDIO_PROJECTOR_TYPE = "qwen2a";

/** Sample rate mtmd resamples audio to for this projector type (Hz). */
export const DEMO_AUDIO_SAMPLE_RATE = 16000;

/** Mel frames of one encoder window: 30 s at a 160-sample hop. */
const FRAMES_PER_WINDOW = 3000;

/** Embeddings per window: the stride-2 convolution and the 2x pool each halve 3000 frames. */
export const DEMO_AUDIO_TOKENS_PER_WINDOW = FRAMES_PER_WINDOW / 4;

/**
 * Shape of a generated audio projector. `outputLength` must equal the text model's
 * embedding length (mtmd refuses a mismatch); the encoder sizes only need to divide evenly.
 */
export interface DemoAudioProjectorShape {
  name: string;
  /** Width of the projected embeddings: the text model's `llama.embedding_length`. */
  outputLength: number;
  /** Width of the encoder (whisper's d_model). */
  embeddingLength: number;
  headCount: number;
  feedForwardLength: number;
  blockCount: number;
  /** Mel bins of the spectrogram the first convolution reads (whisper: 80). */
  melBins: number;
  seed: number;
}

/** The projector for `demo:latest` (its embedding length): 0.85 MB. */
export const DEMO_AUDIO_PROJECTOR_SHAPE: Readonly<DemoAudioProjectorShape> = Object.freeze({
  name: "demo-audio-projector",
  outputLength: DEMO_MODEL_SHAPE.embeddingLength,
  embeddingLength: 64,
  headCount: 4,
  feedForwardLength: 128,
  blockCount: 2,
  melBins: 80,
  seed: 20250614,
});

/** Learned positions: one per conv output of a window (the graph asserts at least 1500). */
const POSITIONS = FRAMES_PER_WINDOW / 2;
/** `clip.audio.attention.layer_norm_epsilon` (whisper's LayerNorm default). */
const LAYER_NORM_EPSILON = 1e-5;

/**
 * Embeddings mtmd makes of `sampleCount` samples at DEMO_AUDIO_SAMPLE_RATE: it appends 30 s
 * of silence, cuts 400-sample frames every 160 samples and keeps only whole 3000-frame
 * windows, so anything shorter than 29.99 s is one window. Fewer than 2 samples gives 0: mtmd
 * cannot take them (none fails to decode; one aborts the process in an assertion).
 */
export function demoAudioTokenCount(sampleCount: number): number {
  if (sampleCount < 2) return 0;
  const frames = Math.floor((Math.max(sampleCount, 201) + 30 * DEMO_AUDIO_SAMPLE_RATE) / 160) + 1;
  return Math.floor(frames / FRAMES_PER_WINDOW) * DEMO_AUDIO_TOKENS_PER_WINDOW;
}

function metadataFor(shape: DemoAudioProjectorShape): Array<[string, GgufTypedValue]> {
  return [
    ["general.architecture", gguf.str("clip")],
    ["general.name", gguf.str(shape.name)],
    ["general.description", gguf.str("generated audio projector with random weights")],
    ["general.license", gguf.str(DEMO_LICENSE)],
    ["general.file_type", gguf.u32(1)], // LLAMA_FTYPE_MOSTLY_F16: the matrices' type
    ["clip.projector_type", gguf.str(DEMO_AUDIO_PROJECTOR_TYPE)],
    ["clip.has_vision_encoder", gguf.bool(false)],
    ["clip.has_audio_encoder", gguf.bool(true)],
    ["clip.audio.embedding_length", gguf.u32(shape.embeddingLength)],
    ["clip.audio.feed_forward_length", gguf.u32(shape.feedForwardLength)],
    ["clip.audio.block_count", gguf.u32(shape.blockCount)],
    ["clip.audio.attention.head_count", gguf.u32(shape.headCount)],
    ["clip.audio.attention.layer_norm_epsilon", gguf.f32(LAYER_NORM_EPSILON)],
    ["clip.audio.projection_dim", gguf.u32(shape.outputLength)],
    ["clip.audio.num_mel_bins", gguf.u32(shape.melBins)],
  ];
}

/**
 * Builds tensors whose values are uniform in ±scale (or a constant), drawn in file order from
 * one seeded generator, so the same shape always gives the same bytes. `edit` may change the
 * values before they are encoded.
 */
function tensorFactory(seed: number) {
  const next = prng(seed);
  type Edit = (values: Float32Array) => void;
  const make = (name: string, dims: number[], type: GgmlTensorType, scale: number, edit?: Edit) => {
    const values = new Float32Array(dims.reduce((a, b) => a * b, 1));
    if (scale > 0) for (let i = 0; i < values.length; i++) values[i] = (next() * 2 - 1) * scale;
    edit?.(values);
    return { name, dims, type, data: () => encodeTensor(values, type) };
  };
  return {
    /** A weight matrix reading `nIn` values: rows of unit expected length keep activations sized. */
    matrix: (name: string, dims: number[], nIn: number, edit?: Edit) =>
      make(name, dims, GgmlTensorType.F16, Math.sqrt(3 / nIn), edit),
    bias: (name: string, dims: number[], edit?: Edit) =>
      make(name, dims, GgmlTensorType.F32, 0.02, edit),
    positions: (name: string, dims: number[]) => make(name, dims, GgmlTensorType.F32, 0.1),
    ones: (name: string, n: number) => make(name, [n], GgmlTensorType.F32, 0, (v) => v.fill(1)),
    zeros: (name: string, n: number) => make(name, [n], GgmlTensorType.F32, 0),
  };
}

/** The tensors llama.cpp's qwen2a loader and whisper graph read, in their order. */
function tensorsFor(shape: DemoAudioProjectorShape): GgufTensorSpec[] {
  const e = shape.embeddingLength;
  const ff = shape.feedForwardLength;
  const t = tensorFactory(shape.seed);
  // Convolution kernels are [kernel width, in channels, out channels]; their biases are
  // [1, channels] so they broadcast over the frames.
  const list = [
    t.matrix("a.conv1d.1.weight", [3, shape.melBins, e], 3 * shape.melBins),
    t.bias("a.conv1d.1.bias", [1, e]),
    t.matrix("a.conv1d.2.weight", [3, e, e], 3 * e),
    t.bias("a.conv1d.2.bias", [1, e]),
    t.positions("a.position_embd.weight", [e, POSITIONS]),
  ];
  for (let i = 0; i < shape.blockCount; i++) {
    const p = `a.blk.${i}`;
    list.push(t.ones(`${p}.ln1.weight`, e), t.zeros(`${p}.ln1.bias`, e));
    list.push(t.matrix(`${p}.attn_q.weight`, [e, e], e), t.bias(`${p}.attn_q.bias`, [e]));
    list.push(t.matrix(`${p}.attn_k.weight`, [e, e], e)); // whisper's key has no bias
    list.push(t.matrix(`${p}.attn_v.weight`, [e, e], e), t.bias(`${p}.attn_v.bias`, [e]));
    list.push(t.matrix(`${p}.attn_out.weight`, [e, e], e), t.bias(`${p}.attn_out.bias`, [e]));
    list.push(t.ones(`${p}.ln2.weight`, e), t.zeros(`${p}.ln2.bias`, e));
    list.push(t.matrix(`${p}.ffn_up.weight`, [e, ff], e), t.bias(`${p}.ffn_up.bias`, [ff]));
    list.push(t.matrix(`${p}.ffn_down.weight`, [ff, e], ff), t.bias(`${p}.ffn_down.bias`, [e]));
  }
  list.push(t.ones("a.post_ln.weight", e), t.zeros("a.post_ln.bias", e));
  // Output dimension 0 is the demo model's bias dimension: a constant DEMO_TOKEN_BIAS (the
  // other outputs have an RMS near 1), so audio embeddings weigh like words and the model
  // still answers in printable bytes.
  list.push(
    t.matrix("mm.a.fc.weight", [e, shape.outputLength], e, (values) => values.fill(0, 0, e)),
    t.bias("mm.a.fc.bias", [shape.outputLength], (values) => {
      values[0] = DEMO_TOKEN_BIAS;
    }),
  );
  return list;
}

/** The metadata and tensors of a generated audio projector, before serialisation. */
export function demoAudioProjectorParts(shape: Partial<DemoAudioProjectorShape> = {}): {
  metadata: Array<[string, GgufTypedValue]>;
  tensors: GgufTensorSpec[];
} {
  const full: DemoAudioProjectorShape = { ...DEMO_AUDIO_PROJECTOR_SHAPE, ...shape };
  const sizes = [full.outputLength, full.embeddingLength, full.headCount];
  if (!sizes.every((n) => Number.isInteger(n) && n > 0)) {
    throw new RangeError("demo audio projector: widths and head count must be positive integers");
  }
  if (full.embeddingLength % full.headCount !== 0) {
    throw new RangeError("demo audio projector: embedding length must divide by the head count");
  }
  return { metadata: metadataFor(full), tensors: tensorsFor(full) };
}

/**
 * Writes an audio projector GGUF for a generated text model: load it as the mmproj beside a
 * model whose embedding length is `outputLength`. Its embeddings are noise that still moves
 * the model's next token. Deterministic: the same shape always gives the same bytes.
 */
export async function writeDemoAudioProjector(
  path: string,
  shape: Partial<DemoAudioProjectorShape> = {},
): Promise<void> {
  const { metadata, tensors } = demoAudioProjectorParts(shape);
  await writeGgufFile(path, metadata, tensors);
}
