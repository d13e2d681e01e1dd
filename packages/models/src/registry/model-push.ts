// `push`: uploads a model's blobs and manifest to a registry.
import { createReadStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import type { TransferProgress } from "../api/types.js";
import type { ManifestLayer } from "../store/manifest.js";
import type { ModelName } from "../store/model-name.js";
import type { ModelStore } from "../store/model-store.js";
import type { StoredModel } from "../store/stored-model.js";
import { layerStatus } from "./blob-download.js";
import { RegistryClient, type RegistrySettings } from "./registry-client.js";

/** A file's bytes as a web stream, reporting progress about once per percent. */
function uploadStream(
  path: string,
  layer: ManifestLayer,
  report: (p: TransferProgress) => void,
): ReadableStream {
  let done = 0;
  let reported = 0;
  const step = Math.max(1, Math.floor(layer.size / 100));
  const status = layerStatus("pushing", layer.digest);
  const count = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      done += chunk.length;
      if (done - reported >= step || done === layer.size) {
        reported = done;
        report({ status, digest: layer.digest, total: layer.size, completed: done });
      }
      callback(null, chunk);
    },
  });
  return Readable.toWeb(createReadStream(path).pipe(count)) as unknown as ReadableStream;
}

/**
 * Pushes a stored model to the registry its name points at, as Ollama does: every blob
 * the registry lacks (asked with HEAD) is uploaded, then the manifest, byte for byte.
 */
export async function pushModel(
  store: ModelStore,
  model: StoredModel,
  name: ModelName,
  settings: RegistrySettings,
  report: (p: TransferProgress) => void,
): Promise<void> {
  report({ status: "retrieving manifest" });
  const bytes = await store.manifestBytes(model);
  const client = new RegistryClient(name, settings);
  const seen = new Set<string>();
  for (const layer of [...model.manifest.layers, model.manifest.config]) {
    if (seen.has(layer.digest)) continue;
    seen.add(layer.digest);
    const status = layerStatus("pushing", layer.digest);
    if (await client.hasBlob(layer.digest)) {
      report({ status, digest: layer.digest, total: layer.size, completed: layer.size });
      continue;
    }
    report({ status, digest: layer.digest, total: layer.size, completed: 0 });
    const body = uploadStream(store.blobs.path(layer.digest), layer, report);
    await client.upload(layer.digest, layer.size, body);
  }
  report({ status: "pushing manifest" });
  await client.putManifest(bytes);
  report({ status: "success" });
}
