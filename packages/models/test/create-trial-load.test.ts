import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { trialLoad } from "../src/gguf/trial-load.js";
import { baseModel, type CraftedGguf, encodeCrafted, gguf, withMeta } from "./crafted-gguf.js";
import { postJson, startTestServer, type TestServer } from "./harness.js";

/** The base model under another architecture name (its keys renamed to match). */
function asArchitecture(g: CraftedGguf, arch: string): CraftedGguf {
  return {
    ...g,
    metadata: g.metadata.map(([k, v]) =>
      k === "general.architecture"
        ? [k, gguf.str(arch)]
        : [k.startsWith("llama.") ? `${arch}.${k.slice(6)}` : k, v],
    ),
  };
}

/** Files that pass the header checks but that llama.cpp refuses to load. */
const UNLOADABLE: Array<{ name: string; file: () => CraftedGguf; reason: RegExp }> = [
  {
    name: "an architecture llama.cpp does not know",
    file: () => asArchitecture(baseModel(), "fancy"),
    reason: /llama.cpp cannot load it: .*unknown model architecture: 'fancy'/,
  },
  {
    name: "a llama model missing a required tensor",
    file: () => {
      const b = baseModel();
      return { ...b, tensors: b.tensors.filter((t) => t.name !== "blk.0.attn_q.weight") };
    },
    reason: /llama.cpp cannot load it: .*missing tensor 'blk.0.attn_q.weight'/,
  },
  {
    name: "an unknown tokenizer",
    file: () => withMeta(baseModel(), "tokenizer.ggml.model", gguf.str("nonsense")),
    reason: /llama.cpp cannot load it: .*unknown tokenizer: 'nonsense'/,
  },
];

describe("create refuses a GGUF llama.cpp cannot load", { timeout: 180_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  for (const c of UNLOADABLE) {
    it(`answers 400 with llama.cpp's reason for ${c.name}, storing no model`, async () => {
      const bytes = encodeCrafted(c.file()).bytes;
      const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
      await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body: bytes });
      const r = await postJson(`${server.url}/api/create`, {
        model: "unloadable",
        files: { "m.gguf": digest },
      });
      assert.equal(r.status, 400, r.text);
      assert.match((r.body as { error: string }).error, c.reason);
      const show = await postJson(`${server.url}/api/show`, { model: "unloadable" });
      assert.equal(show.status, 404);
    });
  }

  it("still serves the demo model afterwards", async () => {
    const r = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.equal(r.status, 200, r.text);
  });
});

describe("a trial load that aborts inside llama.cpp", { timeout: 60_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-trial-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("ends only the child: the reason names llama.cpp's failed assertion", async () => {
    // block_count 1000 passes no header check here: trialLoad is called directly, as if
    // the checks had missed it. llama.cpp asserts (SIGABRT) on it.
    const path = join(dir, "blocks.gguf");
    await writeFile(
      path,
      encodeCrafted(withMeta(baseModel(), "llama.block_count", gguf.u32(1000))).bytes,
    );
    await assert.rejects(trialLoad(path, { timeoutMs: 60_000 }), (e: Error) => {
      assert.match(e.message, /llama.cpp crashed loading it \(SIGABRT\): GGML_ASSERT\(/);
      return true;
    });
    const ok = join(dir, "ok.gguf");
    await writeFile(ok, encodeCrafted(baseModel()).bytes);
    await trialLoad(ok, { timeoutMs: 60_000 });
  });

  it("refuses the file when the load outlives its time bound, killing the child", async () => {
    // A child that never answers stands in for a load that hangs.
    const hang = join(dir, "hang.mjs");
    await writeFile(hang, "setInterval(() => {}, 1000);\n");
    await assert.rejects(
      trialLoad(join(dir, "ok.gguf"), { timeoutMs: 200, childScript: hang }),
      /invalid model file: loading it took longer than 200 ms/,
    );
  });
});
