// A stored model as the server sees it, and how one is read from its manifest and layers.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { LlmsrvError, modelNotFound } from "../errors.js";
import type { BlobStore } from "./blob-store.js";
import { asManifest, type Manifest, MediaType } from "./manifest.js";
import { type ModelFacts, withTemplateCapabilities } from "./model-info.js";
import { displayName, type ModelName } from "./model-name.js";
import { type ProjectorFacts, withProjector } from "./projector-layers.js";

/** A chat message stored with a model (Modelfile MESSAGE). */
export interface StoredMessage {
  role: string;
  content: string;
}

/** Everything the server needs to know about one stored model. */
export interface StoredModel {
  name: ModelName;
  display: string;
  /** Hex SHA-256 of the manifest bytes (the listing's `digest`). */
  digest: string;
  size: number;
  modifiedAt: Date;
  manifest: Manifest;
  modelPath: string;
  modelDigest: string;
  /** Blob files of the model's LoRA adapters, applied in this order. */
  adapterPaths: string[];
  /** Blob file of the model's multimodal projector (its projector layer), if it has one. */
  projectorPath: string | undefined;
  /** What the projector's GGUF header says (`projector_info`, vision/audio encoders). */
  projector: ProjectorFacts | undefined;
  /** The model blob's facts, with the capabilities its template and projector add. */
  facts: ModelFacts;
  template: string | undefined;
  system: string | undefined;
  params: Record<string, unknown>;
  license: string[];
  messages: StoredMessage[];
  parentModel: string;
}

/**
 * Reads one model from its manifest file: the layers' texts (template, system, parameters,
 * license, messages), its adapters' and projector's blobs, the config's parent, and the GGUF
 * facts of its model and projector layers.
 */
export async function readStoredModel(
  name: ModelName,
  path: string,
  blobs: BlobStore,
  factsFor: (digest: string) => ModelFacts,
  projectorFactsFor: (digest: string) => ProjectorFacts,
): Promise<StoredModel> {
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch {
    throw modelNotFound(displayName(name));
  }
  const manifest = asManifest(JSON.parse(raw.toString("utf8")));
  if (!manifest) throw new LlmsrvError("internal", `manifest of ${displayName(name)} is malformed`);
  const modelLayer = manifest.layers.find((l) => l.mediaType === MediaType.model);
  if (!modelLayer) throw new LlmsrvError("internal", `${displayName(name)} has no model layer`);
  // llama.cpp's mtmd takes one projector; Ollama's runner too uses the first.
  const projectorLayer = manifest.layers.find((l) => l.mediaType === MediaType.projector);
  const projector = projectorLayer && projectorFactsFor(projectorLayer.digest);
  const text = async (media: string) => {
    const layers = manifest.layers.filter((l) => l.mediaType === media);
    return Promise.all(layers.map((l) => readFile(blobs.path(l.digest), "utf8")));
  };
  const [template, system, params, license, messages] = await Promise.all(
    [
      MediaType.template,
      MediaType.system,
      MediaType.params,
      MediaType.license,
      MediaType.messages,
    ].map(text),
  );
  const config = await readFile(blobs.path(manifest.config.digest), "utf8").then(
    (t) => JSON.parse(t) as { parent_model?: string },
    () => ({}) as { parent_model?: string },
  );
  return {
    name,
    display: displayName(name),
    digest: createHash("sha256").update(raw).digest("hex"),
    size: manifest.layers.reduce((a, l) => a + l.size, manifest.config.size),
    modifiedAt: (await stat(path)).mtime,
    manifest,
    modelPath: blobs.path(modelLayer.digest),
    modelDigest: modelLayer.digest,
    adapterPaths: manifest.layers
      .filter((l) => l.mediaType === MediaType.adapter)
      .map((l) => blobs.path(l.digest)),
    projectorPath: projectorLayer && blobs.path(projectorLayer.digest),
    projector,
    facts: withProjector(
      withTemplateCapabilities(factsFor(modelLayer.digest), template?.[0]),
      projector,
    ),
    template: template?.[0],
    system: system?.[0],
    params: params?.[0] ? (JSON.parse(params[0]) as Record<string, unknown>) : {},
    license: license ?? [],
    messages: messages?.[0] ? (JSON.parse(messages[0]) as StoredMessage[]) : [],
    parentModel: config.parent_model ?? "",
  };
}
