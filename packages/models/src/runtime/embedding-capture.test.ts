// Embeddings of a model that does not pool, read from the hidden states during the decode
// (native/src/hidden-capture.h): the vectors llama.cpp's own embeddings give, and its
// fallback when the graph does not expose them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { writeDemoModel } from "../demo/demo-model.js";
import {
  type EmbeddingContextOptions,
  loadMtmdAddon,
  type NativeMtmdModel,
} from "./mtmd/mtmd-addon.js";
import { addonMissing } from "./mtmd/test-support.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };
/** A ubatch of 64 tokens: the 200-token text spans four, only the last has its output. */
const CONTEXT: EmbeddingContextOptions = {
  contextSize: 256,
  sequences: 8,
  threads: 2,
  batchSize: 64,
  flashAttention: "auto",
  kvCacheType: "f16",
};

/** Token lists of 3 to 32 tokens, and one of 200; all different. */
function tokenLists(): Int32Array[] {
  return Array.from({ length: 12 }, (_, i) =>
    Int32Array.from(
      { length: i === 5 ? 200 : 3 + ((i * 7) % 30) },
      (_, j) => 1 + ((i * 31 + j * 7) % 200),
    ),
  );
}

const plain = (vectors: Float32Array[]) => vectors.map((v) => [...v]);

describe("embeddings read from the hidden states", {
  skip: skipUnlessProvided(addonMissing()),
}, () => {
  let dir: string;
  let modelPath: string;
  let model: NativeMtmdModel;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "embedding-capture-test-"));
    modelPath = join(dir, "model.gguf");
    await writeDemoModel(modelPath, TINY);
    model = await loadMtmdAddon("cpu").loadModel({
      modelPath,
      ...CONTEXT,
      sequences: 1,
      gpuLayers: 0,
    });
  });

  after(async () => {
    await model?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("gives llama.cpp's own embeddings bit for bit, in groups, alone and across ubatches", async () => {
    const captured = await model.embeddingContext(CONTEXT);
    const own = await model.embeddingContext({ ...CONTEXT, hiddenStateTensor: null });
    try {
      const lists = tokenLists();
      const expected = plain(await own.embed(lists));
      assert.deepEqual(plain(await captured.embed(lists)), expected);
      for (const [i, list] of lists.entries()) {
        assert.deepEqual(plain(await captured.embed([list])), [expected[i]], `text ${i} alone`);
      }
      // Different texts, different vectors: rows read in the wrong order would show.
      assert.notDeepEqual(expected[0], expected[1]);
      assert.ok(expected.every((v) => v.length === TINY.embeddingLength));
    } finally {
      await captured.dispose();
      await own.dispose();
    }
  });

  it("falls back to llama.cpp's embeddings, with one warning, where the graph lacks the tensor", async () => {
    const own = await model.embeddingContext({ ...CONTEXT, hiddenStateTensor: null });
    const expected = plain(await own.embed(tokenLists()));
    await own.dispose();
    // The warning is native output on stderr: another process runs the call.
    const addonModule = new URL("./mtmd/mtmd-addon.js", import.meta.url).href;
    const script = `
      const { loadMtmdAddon } = await import(${JSON.stringify(addonModule)});
      const options = JSON.parse(process.argv[1]);
      const model = await loadMtmdAddon("cpu").loadModel({ ...options.context, modelPath: options.modelPath, sequences: 1, gpuLayers: 0 });
      const ctx = await model.embeddingContext({ ...options.context, hiddenStateTensor: "no_such_tensor" });
      const lists = options.lists.map((l) => Int32Array.from(l));
      const first = await ctx.embed(lists);
      const second = await ctx.embed(lists);
      process.stdout.write(JSON.stringify([first, second].map((vs) => vs.map((v) => [...v]))));
      await ctx.dispose();
      await model.dispose();
    `;
    const options = { context: CONTEXT, modelPath, lists: tokenLists().map((l) => [...l]) };
    const run = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", script, JSON.stringify(options)],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    assert.equal(run.status, 0, run.stderr);
    const [first, second] = JSON.parse(run.stdout) as number[][][];
    assert.deepEqual(first, expected);
    assert.deepEqual(second, expected);
    const warnings = run.stderr.split("\n").filter((l) => /hidden states cannot be read/.test(l));
    assert.equal(warnings.length, 1, run.stderr);
  });
});
