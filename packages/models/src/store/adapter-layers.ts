// LoRA adapter layers: checking an adapter blob against its base model, and a new model's adapter layers.
import { LlmsrvError } from "../errors.js";
import { checkTensorLayout } from "../gguf/gguf-layout-check.js";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { checkLoraFits, invalidAdapter } from "../gguf/lora-check.js";
import type { BlobStore } from "./blob-store.js";
import { type ManifestLayer, MediaType } from "./manifest.js";

/** An adapter a create names: the file name the request gave it, and its blob. */
export interface AdapterRef {
  name: string;
  digest: string;
}

/**
 * Refuses (400 naming the adapter and the problem) an adapter blob that is not a GGUF,
 * whose layout lies, that is not a LoRA adapter, or that does not fit the model blob:
 * another architecture, a tensor the model lacks, factors of the wrong shape.
 */
export function checkAdapterBlob(blobs: BlobStore, adapter: AdapterRef, modelDigest: string): void {
  const label = JSON.stringify(adapter.name);
  try {
    const info = readGgufInfo(blobs.path(adapter.digest));
    checkTensorLayout(info);
    checkLoraFits(info, readGgufInfo(blobs.path(modelDigest)), label);
  } catch (e) {
    if (!(e instanceof LlmsrvError) || e.code !== "not_gguf") throw e;
    throw invalidAdapter(label, e.message.replace(/^invalid model file: /, ""));
  }
}

/**
 * The adapter layers of a new model: those it inherits (FROM a model with adapters, as
 * Ollama keeps them), then the new ones, each blob once.
 */
export async function adapterLayers(
  blobs: BlobStore,
  inherited: readonly ManifestLayer[],
  added: readonly AdapterRef[],
): Promise<ManifestLayer[]> {
  const layers = inherited.filter((l) => l.mediaType === MediaType.adapter);
  for (const a of added) {
    if (layers.some((l) => l.digest === a.digest)) continue;
    layers.push({
      mediaType: MediaType.adapter,
      digest: a.digest,
      size: await blobs.size(a.digest),
    });
  }
  return layers;
}
