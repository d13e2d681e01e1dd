// Tests of registering the demo models in a store (once, and again after a version change).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type GgufTypedValue, gguf, writeGgufFile } from "../gguf/gguf-writer.js";
import { parseModelName } from "../store/model-name.js";
import { ModelStore } from "../store/model-store.js";
import { writeDemoAudioProjector } from "./demo-audio-projector.js";
import {
  DEMO_LICENSE,
  DEMO_MODEL_VERSION,
  DEMO_VERSION_KEY,
  type DemoModelShape,
  demoModelParts,
} from "./demo-model.js";
import {
  DEMO_AUDIO,
  DEMO_AUDIO_NAME,
  DEMO_MODEL_NAME,
  DEMO_VISION,
  DEMO_VISION_NAME,
  type DemoProjectorKind,
  ensureDemoModel,
  ensureDemoModels,
  ensureDemoProjectorModel,
} from "./demo-setup.js";

const TINY: Partial<DemoModelShape> = {
  embeddingLength: 64,
  headCount: 4,
  headCountKv: 2,
  feedForwardLength: 128,
  vocabulary: "bytes",
};

describe("ensureDemoModel", () => {
  let dir: string;
  let n = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "demo-setup-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const freshStore = () => new ModelStore(join(dir, `store-${n++}`));

  /** Stores a generated model under demo:latest whose metadata `edit` changed. */
  async function storeEdited(
    store: ModelStore,
    edit: (meta: Map<string, GgufTypedValue>) => void,
  ): Promise<string> {
    const { metadata, tensors } = demoModelParts({ ...TINY, seed: 7 });
    const meta = new Map(metadata);
    edit(meta);
    const path = join(dir, `edited-${n++}.gguf`);
    await writeGgufFile(path, [...meta], tensors);
    const digest = await store.blobs.putFile(path);
    const name = parseModelName(DEMO_MODEL_NAME);
    assert.ok(name);
    await store.create(name, { modelDigest: digest });
    return digest;
  }

  it("registers the demo with its version and leaves a current one as it is", async () => {
    const store = freshStore();
    const first = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    assert.equal(first.facts.modelInfo[DEMO_VERSION_KEY], DEMO_MODEL_VERSION);
    assert.equal(first.facts.modelInfo["general.license"], DEMO_LICENSE);
    const again = await ensureDemoModel(store, DEMO_MODEL_NAME, { ...TINY, seed: 1 });
    assert.equal(again.modelDigest, first.modelDigest, "not written again");
    assert.equal(again.digest, first.digest);
  });

  it("replaces the first demo model (no version key, its license) and removes its weights", async () => {
    const store = freshStore();
    const old = await storeEdited(store, (meta) => {
      meta.delete(DEMO_VERSION_KEY);
      meta.set("general.license", gguf.str("Unlicense (generated noise weights)"));
    });
    const now = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    assert.notEqual(now.modelDigest, old);
    assert.equal(now.facts.modelInfo[DEMO_VERSION_KEY], DEMO_MODEL_VERSION);
    assert.equal(await store.blobs.has(old), false, "the old weights are deleted");
    assert.deepEqual(
      (await store.list()).map((m) => m.display),
      [DEMO_MODEL_NAME],
    );
  });

  it("replaces a demo model of another version", async () => {
    const store = freshStore();
    const old = await storeEdited(store, (meta) => {
      meta.set(DEMO_VERSION_KEY, gguf.u32(DEMO_MODEL_VERSION + 1));
    });
    const now = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    assert.notEqual(now.modelDigest, old);
    assert.equal(now.facts.modelInfo[DEMO_VERSION_KEY], DEMO_MODEL_VERSION);
  });

  it("keeps a model of the user's under the demo's name", async () => {
    const store = freshStore();
    const own = await storeEdited(store, (meta) => {
      meta.delete(DEMO_VERSION_KEY);
      meta.set("general.license", gguf.str("MIT"));
    });
    const kept = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    assert.equal(kept.modelDigest, own);
  });

  it("registers demo-vision and demo-audio: the demo's weights and template, a projector layer", async () => {
    const store = freshStore();
    const [demo, vision, audio] = await ensureDemoModels(store, TINY);
    assert.ok(demo && vision && audio);
    assert.deepEqual(
      [demo.display, vision.display, audio.display],
      [DEMO_MODEL_NAME, DEMO_VISION_NAME, DEMO_AUDIO_NAME],
    );
    for (const m of [vision, audio]) {
      assert.equal(m.modelDigest, demo.modelDigest, `${m.display} shares the demo's weights`);
      assert.equal(m.template, demo.template);
      assert.deepEqual(m.params, demo.params);
      assert.equal(m.parentModel, DEMO_MODEL_NAME);
      assert.ok(m.projectorPath);
    }
    assert.ok(vision.facts.capabilities.includes("vision"));
    assert.ok(!vision.facts.capabilities.includes("audio"));
    assert.ok(audio.facts.capabilities.includes("audio"));
    assert.ok(!audio.facts.capabilities.includes("vision"));
    // sized to the demo model it was made for
    assert.equal(vision.projector?.info["clip.vision.projection_dim"], TINY.embeddingLength);
    assert.equal(audio.projector?.info["clip.audio.projection_dim"], TINY.embeddingLength);
    const again = await ensureDemoModels(store, TINY);
    assert.deepEqual(
      again.map((m) => m.digest),
      [demo.digest, vision.digest, audio.digest],
      "kept as they were",
    );
  });

  it("replaces a projector model of another generator version, removing the old projector", async () => {
    const store = freshStore();
    const demo = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    const first = await ensureDemoProjectorModel(store, demo, DEMO_AUDIO);
    const oldProjector = first.manifest.layers[1]?.digest;
    assert.ok(oldProjector);
    const newer: DemoProjectorKind = {
      ...DEMO_AUDIO,
      version: DEMO_AUDIO.version + 1,
      write: (path, outputLength) => writeDemoAudioProjector(path, { outputLength, seed: 5 }),
    };
    const now = await ensureDemoProjectorModel(store, demo, newer);
    assert.notEqual(now.manifest.layers[1]?.digest, oldProjector);
    assert.equal(await store.blobs.has(oldProjector), false, "the old projector is deleted");
  });

  it("replaces a projector model made on another demo model", async () => {
    const store = freshStore();
    const demo = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    const vision = await ensureDemoProjectorModel(store, demo, DEMO_VISION);
    const other = await ensureDemoModel(store, "demo-other", { ...TINY, seed: 9 });
    assert.notEqual(other.modelDigest, demo.modelDigest);
    const now = await ensureDemoProjectorModel(store, other, DEMO_VISION);
    assert.notEqual(now.digest, vision.digest);
    assert.equal(now.modelDigest, other.modelDigest);
  });

  it("keeps a model of the user's under a projector model's name", async () => {
    const store = freshStore();
    const demo = await ensureDemoModel(store, DEMO_MODEL_NAME, TINY);
    const name = parseModelName(DEMO_VISION_NAME);
    assert.ok(name);
    const own = await store.create(name, { from: demo, system: "mine" });
    const kept = await ensureDemoProjectorModel(store, demo, DEMO_VISION);
    assert.equal(kept.digest, own.digest);
    assert.equal(kept.projectorPath, undefined);
  });

  it("makes no projector models on a model of the user's under the demo's name", async () => {
    const store = freshStore();
    await storeEdited(store, (meta) => {
      meta.delete(DEMO_VERSION_KEY);
      meta.set("general.license", gguf.str("MIT"));
    });
    const models = await ensureDemoModels(store, TINY);
    assert.deepEqual(
      models.map((m) => m.display),
      [DEMO_MODEL_NAME],
    );
    assert.deepEqual(
      (await store.list()).map((m) => m.display),
      [DEMO_MODEL_NAME],
    );
  });
});
