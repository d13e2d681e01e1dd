// Registers the demo model in a store under `demo:latest`, rewriting it when its version changed.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { parseModelName } from "../store/model-name.js";
import type { ModelStore } from "../store/model-store.js";
import type { StoredModel } from "../store/stored-model.js";
import {
  DEMO_MODEL_VERSION,
  DEMO_VERSION_KEY,
  type DemoModelShape,
  writeDemoModel,
} from "./demo-model.js";

/** The name the demo model is registered under. */
export const DEMO_MODEL_NAME = "demo:latest";

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
  await mkdir(store.root, { recursive: true });
  const tmp = join(store.root, `demo-${process.pid}-${Date.now()}.gguf`);
  try {
    await writeDemoModel(tmp, shape);
    const digest = await store.blobs.putFile(tmp);
    if (outdated) await store.delete(outdated);
    return await store.create(parsed, {
      modelDigest: digest,
      license: [
        "The demo model's weights are generated: its embeddings average word vectors; its text is noise.",
      ],
      parameters: { stop: ["<|im_end|>"] },
    });
  } finally {
    await rm(tmp, { force: true });
  }
}
