// Registers the demo models (`demo`, `demo-vision`, `demo-audio`) in a store, rewriting those whose generator changed.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { parseModelName } from "../store/model-name.js";
import type { ModelStore } from "../store/model-store.js";
import type { StoredModel } from "../store/stored-model.js";
import { DEMO_AUDIO_PROJECTOR_VERSION, writeDemoAudioProjector } from "./demo-audio-projector.js";
import {
  DEMO_MODEL_SHAPE,
  DEMO_MODEL_VERSION,
  DEMO_VERSION_KEY,
  type DemoModelShape,
  writeDemoModel,
} from "./demo-model.js";
import { DEMO_PROJECTOR_VERSION, writeDemoProjector } from "./demo-projector.js";

/** The name the demo model is registered under. */
export const DEMO_MODEL_NAME = "demo:latest";
/** The demo model with the generated vision projector (one 32 px image = 16 tokens). */
export const DEMO_VISION_NAME = "demo-vision:latest";
/** The demo model with the generated audio projector (every started 30 s = 750 tokens). */
export const DEMO_AUDIO_NAME = "demo-audio:latest";

/** A generated projector the demo model is registered with under a name of its own. */
export interface DemoProjectorKind {
  /** Model name to register. */
  name: string;
  /** File name the projector layer is created from (as an /api/create `files` key). */
  file: string;
  /** The generator's version, written as `quintet.demo_version` in the projector. */
  version: number;
  /** Writes the projector for a text model of embedding length `outputLength`. */
  write(path: string, outputLength: number): Promise<void>;
}

/** `demo-vision`: the LLaVA-style vision projector of demo-projector.ts. */
export const DEMO_VISION: DemoProjectorKind = {
  name: DEMO_VISION_NAME,
  file: "demo-vision-projector.gguf",
  version: DEMO_PROJECTOR_VERSION,
  write: (path, outputLength) => writeDemoProjector(path, { outputLength }),
};

/** `demo-audio`: the qwen2a audio projector of demo-audio-projector.ts. */
export const DEMO_AUDIO: DemoProjectorKind = {
  name: DEMO_AUDIO_NAME,
  file: "demo-audio-projector.gguf",
  version: DEMO_AUDIO_PROJECTOR_VERSION,
  write: (path, outputLength) => writeDemoAudioProjector(path, { outputLength }),
};

/** `general.license` of the first generated demo model, which had no version key. */
const FIRST_DEMO_LICENSE = "Unlicense (generated noise weights)";

/**
 * True for a model the demo generator wrote in another version than this one's: the first
 * (byte vocabulary, noise embeddings) is known by its license, later ones by their version
 * key. A model the user stored under the demo's name is none of these.
 */
export function isOutdatedDemo(model: StoredModel): boolean {
  const info = model.facts.modelInfo;
  const version = info[DEMO_VERSION_KEY];
  if (version !== undefined) return version !== DEMO_MODEL_VERSION;
  return info["general.license"] === FIRST_DEMO_LICENSE;
}

/**
 * Registers the demo model in the store: writes the GGUF to a temporary file, moves it into
 * the blobs, writes the manifest. A model of that name is kept unless it is a demo model of
 * another generator version (isOutdatedDemo), which is deleted (its blobs too, when nothing
 * else uses them) and written anew. Returns the stored model.
 */
export async function ensureDemoModel(
  store: ModelStore,
  name = DEMO_MODEL_NAME,
  shape: Partial<DemoModelShape> = {},
): Promise<StoredModel> {
  const parsed = parseModelName(name);
  if (!parsed) throw new RangeError(`invalid demo model name ${name}`);
  let outdated: StoredModel | undefined;
  if (await store.exists(parsed)) {
    const stored = await store.get(name);
    if (!isOutdatedDemo(stored)) return stored;
    outdated = stored;
  }
  const digest = await putGenerated(store, "demo", (path) => writeDemoModel(path, shape));
  if (outdated) await store.delete(outdated);
  return await store.create(parsed, {
    modelDigest: digest,
    license: [
      "The demo model's weights are generated: its embeddings average word vectors; its text is noise.",
    ],
    parameters: { stop: ["<|im_end|>"] },
  });
}

/** Writes a generated file into a temporary path beside the store and moves it into the blobs. */
async function putGenerated(
  store: ModelStore,
  what: string,
  write: (path: string) => Promise<void>,
): Promise<string> {
  await mkdir(store.root, { recursive: true });
  const tmp = join(store.root, `${what}-${process.pid}-${Date.now()}.gguf`);
  try {
    await write(tmp);
    return await store.blobs.putFile(tmp);
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * True for a model registered from `demo` with another generator's projector (its
 * `quintet.demo_version` differs) or another demo model blob than `demo`'s (a demo of another
 * version). A model without a generated projector is the user's, never outdated.
 */
export function isOutdatedDemoProjectorModel(
  model: StoredModel,
  demo: StoredModel,
  kind: DemoProjectorKind,
): boolean {
  const version = model.projector?.info[DEMO_VERSION_KEY];
  if (version === undefined) return false;
  return version !== kind.version || model.modelDigest !== demo.modelDigest;
}

/**
 * Registers `kind.name`: the demo model `demo` (its weights, template and parameters) with the
 * generated projector as its projector layer, as /api/create with `from` and `files` would. Kept
 * unless outdated (isOutdatedDemoProjectorModel), which is deleted and written anew.
 */
export async function ensureDemoProjectorModel(
  store: ModelStore,
  demo: StoredModel,
  kind: DemoProjectorKind,
): Promise<StoredModel> {
  const parsed = parseModelName(kind.name);
  if (!parsed) throw new RangeError(`invalid demo model name ${kind.name}`);
  let outdated: StoredModel | undefined;
  if (await store.exists(parsed)) {
    const stored = await store.get(kind.name);
    if (!isOutdatedDemoProjectorModel(stored, demo, kind)) return stored;
    outdated = stored;
  }
  const outputLength = demo.facts.embeddingLength ?? DEMO_MODEL_SHAPE.embeddingLength;
  const digest = await putGenerated(store, "demo-projector", (path) =>
    kind.write(path, outputLength),
  );
  // The outdated model may use the same projector bytes (made on another demo model): pinned,
  // deleting it leaves them.
  const lease = store.pins.lease();
  try {
    lease.pin(digest);
    if (outdated) await store.delete(outdated);
    const projectors = [{ name: kind.file, digest }];
    return await store.create(parsed, { from: demo, projectors }, () => {}, lease);
  } finally {
    lease.release();
  }
}

/**
 * What `serve --ensure-demo` registers: the demo model, then `demo-vision` and `demo-audio`
 * on it. The projector models are only made on a current demo model: a model of the user's
 * under `demo:latest` may have another width than the projectors. Returns the models ensured.
 * `shape` changes the demo model's (tests write a small one).
 */
export async function ensureDemoModels(
  store: ModelStore,
  shape: Partial<DemoModelShape> = {},
): Promise<StoredModel[]> {
  const demo = await ensureDemoModel(store, DEMO_MODEL_NAME, shape);
  if (demo.facts.modelInfo[DEMO_VERSION_KEY] !== DEMO_MODEL_VERSION) return [demo];
  const models = [demo];
  for (const kind of [DEMO_VISION, DEMO_AUDIO]) {
    models.push(await ensureDemoProjectorModel(store, demo, kind));
  }
  return models;
}
