// Checks that a LoRA adapter GGUF is one llama.cpp will load, and that it fits a base model.
import { LlmsrvError } from "../errors.js";
import { GGML_TYPE_NAMES, GgufValueType } from "./gguf-format.js";
import type { GgufInfo, GgufTensorInfo } from "./gguf-reader.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "./lora-writer.js";

/**
 * llama.cpp (llama-adapter.cpp) trusts parts of an adapter's header and aborts the process
 * on some (a non-f32 `adapter.lora.alpha`), throws at load on others (wrong architecture,
 * a tensor the model lacks, a shape that does not fit). Both are found here, at create,
 * so a model whose adapter cannot be applied is never stored.
 */

/** Element types of LoRA tensors that llama.cpp's matrix product takes (convert_lora_to_gguf's). */
const LORA_TYPES = new Set([0, 1, 8, 30]); // F32, F16, Q8_0, BF16

/** A 400 naming the adapter and what is wrong with it. */
export function invalidAdapter(label: string, detail: string): LlmsrvError {
  return new LlmsrvError("bad_request", `invalid adapter ${label}: ${detail}`);
}

function shapeText(dims: readonly number[]): string {
  return `[${dims.join(", ")}]`;
}

/** An adapted weight: its base tensor's name and its two factors. */
interface LoraTensorPair {
  base: string;
  a: GgufTensorInfo;
  b: GgufTensorInfo;
}

function stringKey(info: GgufInfo, key: string): string | undefined {
  const v = info.metadata.get(key);
  return typeof v === "string" ? v : undefined;
}

function checkMetadata(info: GgufInfo, fail: (detail: string) => never): void {
  const generalType = stringKey(info, "general.type");
  if (generalType !== "adapter")
    fail(
      `general.type is ${generalType === undefined ? "missing" : `"${generalType}"`}, not "adapter" (is it a model rather than a LoRA adapter?)`,
    );
  const adapterType = stringKey(info, "adapter.type");
  if (adapterType !== "lora")
    fail(
      `adapter.type is ${adapterType === undefined ? "missing" : `"${adapterType}"`}, not "lora"`,
    );
  if (!stringKey(info, "general.architecture")) fail("general.architecture is missing");
  // llama.cpp reads alpha with gguf_get_val_f32, which aborts on any other type.
  const alphaType = info.scalarTypes.get("adapter.lora.alpha");
  if (info.metadata.has("adapter.lora.alpha") && alphaType !== GgufValueType.Float32)
    fail("adapter.lora.alpha must be a float32");
}

/** Pairs the `.lora_a` and `.lora_b` tensors by base name; norm vectors are ignored, as in llama.cpp. */
function pairTensors(info: GgufInfo, fail: (detail: string) => never): LoraTensorPair[] {
  const halves = new Map<string, { a?: GgufTensorInfo; b?: GgufTensorInfo }>();
  for (const t of info.tensors) {
    const isA = t.name.endsWith(LORA_A_SUFFIX);
    if (!isA && !t.name.endsWith(LORA_B_SUFFIX)) {
      if (t.name.endsWith("_norm.weight")) continue;
      fail(`tensor ${t.name} is neither a ${LORA_A_SUFFIX} nor a ${LORA_B_SUFFIX} tensor`);
    }
    if (!LORA_TYPES.has(t.type))
      fail(
        `tensor ${t.name} has type ${GGML_TYPE_NAMES[t.type] ?? t.type}; LoRA tensors must be F32, F16, BF16 or Q8_0`,
      );
    if (t.dims.length !== 2) fail(`tensor ${t.name} has ${t.dims.length} dimensions, not 2`);
    const base = t.name.slice(0, -LORA_A_SUFFIX.length);
    const half = halves.get(base) ?? {};
    if (isA) half.a = t;
    else half.b = t;
    halves.set(base, half);
  }
  const pairs: LoraTensorPair[] = [];
  for (const [base, { a, b }] of halves) {
    if (!a || !b)
      fail(
        `tensor ${base}${a ? LORA_A_SUFFIX : LORA_B_SUFFIX} has no ${a ? LORA_B_SUFFIX : LORA_A_SUFFIX} partner`,
      );
    pairs.push({ base, a, b });
  }
  if (pairs.length === 0) fail("it has no LoRA tensors");
  return pairs;
}

/**
 * Checks an adapter's own header: general.type "adapter", adapter.type "lora", an f32
 * alpha, and tensors that pair up as `.lora_a`/`.lora_b` matrices of supported types.
 * Layout (sizes, offsets, bounds) is checkTensorLayout's job.
 */
export function checkLoraHeader(info: GgufInfo, label: string): void {
  const fail: (detail: string) => never = (detail) => {
    throw invalidAdapter(label, detail);
  };
  checkMetadata(info, fail);
  pairTensors(info, fail);
}

/** What the factors of `base` (ggml shape [nIn, nOut]) must look like. */
function checkPairShape(
  pair: LoraTensorPair,
  base: GgufTensorInfo,
  fail: (d: string) => never,
): void {
  const [nIn = 1, nOut = 1] = base.dims;
  const [aIn, aRank] = pair.a.dims as [number, number];
  const [bRank, bOut] = pair.b.dims as [number, number];
  const model = `the model's ${base.name} is ${shapeText(base.dims)}`;
  if (base.dims.length !== 2) fail(`${model}, not a matrix an adapter can change`);
  // token_embd is looked up, not multiplied: llama.cpp expects its factors flipped.
  if (pair.base === "token_embd.weight") {
    if (bOut !== nIn || aRank !== nOut || aIn !== bRank)
      fail(
        `adapter tensors ${pair.a.name} ${shapeText(pair.a.dims)} and ${pair.b.name} ${shapeText(pair.b.dims)} do not fit: ${model}, which needs [rank, ${nOut}] and [rank, ${nIn}]`,
      );
    return;
  }
  if (aIn !== nIn)
    fail(
      `adapter tensor ${pair.a.name} has shape ${shapeText(pair.a.dims)} but ${model}: it must be [${nIn}, rank]`,
    );
  if (bOut !== nOut)
    fail(
      `adapter tensor ${pair.b.name} has shape ${shapeText(pair.b.dims)} but ${model}: it must be [rank, ${nOut}]`,
    );
  if (aRank !== bRank)
    fail(
      `adapter tensors ${pair.a.name} ${shapeText(pair.a.dims)} and ${pair.b.name} ${shapeText(pair.b.dims)} have different ranks (${aRank} and ${bRank})`,
    );
}

/**
 * Checks that an adapter fits a base model as llama.cpp requires: the same architecture,
 * and for every adapted tensor a base tensor of that name whose shape the factors match.
 * A 400 naming the adapter and the mismatch otherwise.
 */
export function checkLoraFits(adapter: GgufInfo, model: GgufInfo, label: string): void {
  const fail: (detail: string) => never = (detail) => {
    throw invalidAdapter(label, detail);
  };
  checkMetadata(adapter, fail);
  const arch = stringKey(adapter, "general.architecture");
  const modelArch = stringKey(model, "general.architecture");
  if (arch !== modelArch)
    fail(`adapter architecture "${arch}" does not match model architecture "${modelArch}"`);
  const modelTensors = new Map(model.tensors.map((t) => [t.name, t]));
  for (const pair of pairTensors(adapter, fail)) {
    const base = modelTensors.get(pair.base);
    if (!base)
      throw invalidAdapter(
        label,
        `adapter tensor ${pair.a.name} adapts ${pair.base}, which the model does not have`,
      );
    checkPairShape(pair, base, fail);
  }
}
