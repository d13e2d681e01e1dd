// Writes LoRA adapter GGUFs in the form llama.cpp's llama_adapter_lora_init reads.
import { GgmlTensorType } from "./gguf-format.js";
import { type GgufTensorSpec, type GgufTypedValue, gguf, writeGgufFile } from "./gguf-writer.js";
import { encodeTensor } from "./tensor-encoding.js";

/** Suffixes llama.cpp pairs adapter tensors by: `<base tensor>.lora_a` and `.lora_b`. */
export const LORA_A_SUFFIX = ".lora_a";
export const LORA_B_SUFFIX = ".lora_b";

/**
 * One adapted weight: the base tensor `base` of `nIn` x `nOut` (ggml order) gains
 * `scale * B(A x)`, with scale = alpha / rank times the adapter's scale at load.
 * `a` holds `rank` rows of `nIn` values (ggml shape [nIn, rank]); `b` holds `nOut` rows
 * of `rank` values (ggml shape [rank, nOut]), as convert_lora_to_gguf.py writes them.
 */
export interface LoraPair {
  base: string;
  nIn: number;
  nOut: number;
  rank: number;
  a: Float32Array;
  b: Float32Array;
}

/** Metadata of a LoRA adapter GGUF. */
export interface LoraHeader {
  /** `general.architecture`: must equal the base model's. */
  architecture: string;
  /** `adapter.lora.alpha` (0: llama.cpp applies the adapter's scale unchanged). */
  alpha: number;
  name?: string;
}

/** The metadata llama.cpp requires of an adapter: general.type, adapter.type, alpha. */
export function loraMetadata(header: LoraHeader): Array<[string, GgufTypedValue]> {
  return [
    ["general.architecture", gguf.str(header.architecture)],
    ["general.type", gguf.str("adapter")],
    ["general.name", gguf.str(header.name ?? "lora")],
    ["adapter.type", gguf.str("lora")],
    ["adapter.lora.alpha", gguf.f32(header.alpha)],
  ];
}

/** The F32 `.lora_a` / `.lora_b` tensors of each pair. */
export function loraTensors(pairs: readonly LoraPair[]): GgufTensorSpec[] {
  return pairs.flatMap((p) => {
    if (p.a.length !== p.nIn * p.rank || p.b.length !== p.rank * p.nOut)
      throw new RangeError(`lora writer: ${p.base} has values that do not fill its shapes`);
    return [
      {
        name: `${p.base}${LORA_A_SUFFIX}`,
        dims: [p.nIn, p.rank],
        type: GgmlTensorType.F32,
        data: () => encodeTensor(p.a, GgmlTensorType.F32),
      },
      {
        name: `${p.base}${LORA_B_SUFFIX}`,
        dims: [p.rank, p.nOut],
        type: GgmlTensorType.F32,
        data: () => encodeTensor(p.b, GgmlTensorType.F32),
      },
    ];
  });
}

/** Writes a LoRA adapter GGUF (atomically, as writeGgufFile does). */
export async function writeLoraFile(
  path: string,
  header: LoraHeader,
  pairs: readonly LoraPair[],
): Promise<void> {
  await writeGgufFile(path, loraMetadata(header), loraTensors(pairs));
}
