// Multimodal projector layers (mmproj GGUFs): telling one from a model, checking it, its facts and capabilities.
import type { Capability } from "../api/types.js";
import { LlmsrvError } from "../errors.js";
import { checkTensorLayout } from "../gguf/gguf-layout-check.js";
import type { GgufInfo } from "../gguf/gguf-reader.js";
import type { BlobStore } from "./blob-store.js";
import { type ManifestLayer, MediaType } from "./manifest.js";
import { type ModelFacts, modelInfoOf } from "./model-info.js";

/** `general.architecture` of a projector GGUF (llama.cpp's clip loader), as Ollama tells them apart. */
export const PROJECTOR_ARCHITECTURE = "clip";

/** A projector a create names: the file name the request gave it, and its blob. */
export interface ProjectorRef {
  name: string;
  digest: string;
}

/** What a projector GGUF's header says, for capabilities and `/api/show`. */
export interface ProjectorFacts {
  architecture: string;
  hasVision: boolean;
  hasAudio: boolean;
  /** `projector_info`: every metadata key (general.name too) and `general.parameter_count`. */
  info: Record<string, unknown>;
}

/** True when a GGUF is a multimodal projector rather than a model. */
export function isProjectorGguf(info: GgufInfo): boolean {
  return info.metadata.get("general.architecture") === PROJECTOR_ARCHITECTURE;
}

/** The projector facts of a GGUF header. */
export function projectorFactsOf(info: GgufInfo): ProjectorFacts {
  const arch = String(info.metadata.get("general.architecture") ?? "unknown");
  const projectorInfo = modelInfoOf(info);
  const name = info.metadata.get("general.name");
  if (typeof name === "string") projectorInfo["general.name"] = name;
  return {
    architecture: arch,
    hasVision: info.metadata.get(`${arch}.has_vision_encoder`) === true,
    hasAudio: info.metadata.get(`${arch}.has_audio_encoder`) === true,
    info: projectorInfo,
  };
}

/** 400 naming the projector file and what is wrong with it. */
export function invalidProjector(label: string, detail: string): LlmsrvError {
  return new LlmsrvError("bad_request", `invalid projector ${label}: ${detail}`);
}

/**
 * Refuses (400 naming the projector) a projector header whose layout lies, that is not a
 * `clip` GGUF, or that has neither encoder (llama.cpp's clip loader refuses such a file).
 */
export function checkProjectorInfo(info: GgufInfo, label: string): ProjectorFacts {
  try {
    checkTensorLayout(info);
  } catch (e) {
    if (!(e instanceof LlmsrvError) || e.code !== "not_gguf") throw e;
    throw invalidProjector(label, e.message.replace(/^invalid model file: /, ""));
  }
  const facts = projectorFactsOf(info);
  if (facts.architecture !== PROJECTOR_ARCHITECTURE)
    throw invalidProjector(
      label,
      `general.architecture is ${JSON.stringify(facts.architecture)}, not "${PROJECTOR_ARCHITECTURE}"`,
    );
  if (!facts.hasVision && !facts.hasAudio)
    throw invalidProjector(
      label,
      "it has neither a vision nor an audio encoder (clip.has_vision_encoder, clip.has_audio_encoder)",
    );
  return facts;
}

/**
 * The projector layers of a new model: the new ones when the recipe names any (they replace
 * what the base model had), else those it inherits, each blob once.
 */
export async function projectorLayers(
  blobs: BlobStore,
  inherited: readonly ManifestLayer[],
  added: readonly ProjectorRef[],
): Promise<ManifestLayer[]> {
  if (added.length === 0) return inherited.filter((l) => l.mediaType === MediaType.projector);
  const layers: ManifestLayer[] = [];
  for (const p of added) {
    if (layers.some((l) => l.digest === p.digest)) continue;
    layers.push({
      mediaType: MediaType.projector,
      digest: p.digest,
      size: await blobs.size(p.digest),
    });
  }
  return layers;
}

/**
 * A projector adds `vision` (it has a vision encoder) and `audio` (an audio encoder) to
 * the model's capabilities, and its architecture to the families, as in Ollama's listings.
 */
export function withProjector(
  facts: ModelFacts,
  projector: ProjectorFacts | undefined,
): ModelFacts {
  if (!projector) return facts;
  const added: Capability[] = [];
  if (projector.hasVision) added.push("vision");
  if (projector.hasAudio) added.push("audio");
  const families = facts.details.families.includes(projector.architecture)
    ? facts.details.families
    : [...facts.details.families, projector.architecture];
  return {
    ...facts,
    capabilities: [...facts.capabilities, ...added.filter((c) => !facts.capabilities.includes(c))],
    details: { ...facts.details, families },
  };
}
