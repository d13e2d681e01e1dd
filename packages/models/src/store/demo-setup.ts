import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type DemoModelShape, writeDemoModel } from "./demo-model.js";
import { parseModelName } from "./model-name.js";
import type { ModelStore, StoredModel } from "./model-store.js";

/** The name the demo model is registered under. */
export const DEMO_MODEL_NAME = "demo:latest";

/**
 * Registers the demo model in the store unless a model of that name exists already:
 * writes the GGUF to a temporary file, moves it into the blobs, writes the manifest.
 * Returns the stored model.
 */
export async function ensureDemoModel(
  store: ModelStore,
  name = DEMO_MODEL_NAME,
  shape: Partial<DemoModelShape> = {},
): Promise<StoredModel> {
  const parsed = parseModelName(name);
  if (!parsed) throw new RangeError(`invalid demo model name ${name}`);
  if (await store.exists(parsed)) return store.get(name);
  await mkdir(store.root, { recursive: true });
  const tmp = join(store.root, `demo-${process.pid}-${Date.now()}.gguf`);
  try {
    await writeDemoModel(tmp, shape);
    const digest = await store.blobs.putFile(tmp);
    return await store.create(parsed, {
      modelDigest: digest,
      license: ["The demo model's weights are seeded random numbers; its text is noise."],
      parameters: { stop: ["<|im_end|>"] },
    });
  } finally {
    await rm(tmp, { force: true });
  }
}
