// `pull`: manifest, blobs and checks from a registry, then the manifest written to the store.
import { rm } from "node:fs/promises";
import type { TransferProgress } from "../api/types.js";
import { AsyncLock } from "../async-lock.js";
import { LlmsrvError } from "../errors.js";
import { checkArchitecture } from "../gguf/gguf-arch-check.js";
import { checkTensorLayout } from "../gguf/gguf-layout-check.js";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { checkLoraHeader } from "../gguf/lora-check.js";
import { normalizeDigest } from "../store/blob-store.js";
import { asManifest, type Manifest, type ManifestLayer, MediaType } from "../store/manifest.js";
import type { ModelName } from "../store/model-name.js";
import type { ModelStore } from "../store/model-store.js";
import { checkProjectorInfo } from "../store/projector-layers.js";
import {
  downloadLayer,
  layerStatus,
  partialPath,
  promotePartial,
  verifyPartial,
} from "./blob-download.js";
import { RegistryClient, type RegistrySettings } from "./registry-client.js";

/**
 * Pulls run one at a time per store, so two pulls never write one partial file; the
 * lock is per store root because tests run several stores in one process.
 */
const pullLocks = new Map<string, AsyncLock>();

function lockFor(store: ModelStore): AsyncLock {
  let lock = pullLocks.get(store.root);
  if (!lock) {
    lock = new AsyncLock();
    pullLocks.set(store.root, lock);
  }
  return lock;
}

function parseManifest(raw: Buffer): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const manifest = asManifest(parsed);
  if (!manifest) throw new LlmsrvError("internal", "pull model manifest: invalid manifest");
  for (const l of [manifest.config, ...manifest.layers]) {
    if (normalizeDigest(l.digest) !== l.digest || !Number.isSafeInteger(l.size) || l.size < 0)
      throw new LlmsrvError("internal", `pull model manifest: invalid layer ${l.digest}`);
  }
  return manifest;
}

/** Layers then config, as Ollama pulls them, each digest once. */
function layersOf(manifest: Manifest): ManifestLayer[] {
  const seen = new Set<string>();
  return [...manifest.layers, manifest.config].filter((l) => {
    if (seen.has(l.digest)) return false;
    seen.add(l.digest);
    return true;
  });
}

/**
 * Checks a downloaded model, adapter or projector layer's GGUF header against its tensors
 * and metadata, as create does, so llama.cpp never sees a file that lies; a refused file
 * is deleted.
 */
async function checkModelLayer(layer: ManifestLayer, path: string): Promise<void> {
  const adapter = layer.mediaType === MediaType.adapter;
  const projector = layer.mediaType === MediaType.projector;
  if (layer.mediaType !== MediaType.model && !adapter && !projector) return;
  try {
    const info = readGgufInfo(path);
    if (projector) {
      checkProjectorInfo(info, layer.digest);
      return;
    }
    checkTensorLayout(info);
    // An adapter's header only: llama.cpp refuses one that does not fit with an error at
    // load, but aborts on a header that lies (checked here).
    if (adapter) checkLoraHeader(info, layer.digest);
    else checkArchitecture(info);
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
}

/**
 * Pulls a model from its registry: the manifest, then every blob the store lacks
 * (resuming partial files), then, once every new blob matched its digest, the blobs are
 * moved into place and the manifest is written. A failure before that leaves blobs and
 * manifests as they were (a cut-off download keeps only its partial file).
 */
export async function pullModel(
  store: ModelStore,
  name: ModelName,
  settings: RegistrySettings,
  report: (p: TransferProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  await lockFor(store).run(async () => {
    report({ status: "pulling manifest" });
    const client = new RegistryClient(name, settings);
    const raw = await client.manifest(signal);
    const manifest = parseManifest(raw);
    const lease = store.pins.lease();
    try {
      const fetched: ManifestLayer[] = [];
      for (const layer of layersOf(manifest)) {
        lease.pin(layer.digest);
        if (await store.blobs.has(layer.digest)) {
          const status = layerStatus("pulling", layer.digest);
          report({ status, digest: layer.digest, total: layer.size, completed: layer.size });
          continue;
        }
        const partial = partialPath(store.blobs.path(layer.digest));
        await downloadLayer(client, layer, partial, report, signal, settings);
        fetched.push(layer);
      }
      report({ status: "verifying sha256 digest" });
      for (const layer of fetched) {
        const partial = partialPath(store.blobs.path(layer.digest));
        await verifyPartial(layer, partial);
        await checkModelLayer(layer, partial);
      }
      for (const layer of fetched) {
        const path = store.blobs.path(layer.digest);
        await promotePartial(partialPath(path), path);
      }
      report({ status: "writing manifest" });
      await store.putManifest(name, raw, manifest);
      report({ status: "success" });
    } finally {
      lease.release();
    }
  }, signal);
}
