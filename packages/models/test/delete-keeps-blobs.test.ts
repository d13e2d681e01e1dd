import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { digestOfFile } from "../src/store/blob-store.js";
import { parseModelName } from "../src/store/model-name.js";
import { ModelStore } from "../src/store/model-store.js";
import { createTinyModel, postJson, startTestServer, type TestServer } from "./harness.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };

async function blobNames(modelsDir: string): Promise<Set<string>> {
  return new Set(await readdir(join(modelsDir, "blobs")));
}

async function del(url: string, model: string): Promise<number> {
  return (await postJson(`${url}/api/delete`, { model }, { method: "DELETE" })).status;
}

describe("deleting a model removes only its own unreferenced blobs", { timeout: 180_000 }, () => {
  let server: TestServer;
  let scratch: string;

  before(async () => {
    server = await startTestServer();
    scratch = await mkdtemp(join(tmpdir(), "llmsrv-del-"));
  });
  after(async () => {
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it("keeps a freshly uploaded blob across a delete of an unrelated model, so create still works", async () => {
    const path = join(scratch, "upload.gguf");
    await writeDemoModel(path, { ...TINY, seed: 31 });
    const digest = await digestOfFile(path);
    const up = await fetch(`${server.url}/api/blobs/${digest}`, {
      method: "POST",
      body: await readFile(path),
    });
    assert.equal(up.status, 201);
    await createTinyModel(server.url, "unrelated", 32);
    assert.equal(await del(server.url, "unrelated"), 200);
    const res = await postJson(`${server.url}/api/create`, {
      model: "after-upload",
      files: { "upload.gguf": digest },
      stream: false,
    });
    assert.equal(res.status, 200, res.text);
  });

  it("removes the deleted model's own blobs and keeps those another manifest references", async () => {
    await createTinyModel(server.url, "doomed", 33);
    const copy = await postJson(`${server.url}/api/copy`, {
      source: "doomed",
      destination: "survivor",
    });
    assert.equal(copy.status, 200);
    const before = await blobNames(server.modelsDir);
    assert.equal(await del(server.url, "doomed"), 200);
    assert.deepEqual(await blobNames(server.modelsDir), before, "the copy still uses every blob");
    const show = await postJson(`${server.url}/api/show`, { model: "survivor" });
    assert.equal(show.status, 200);
    assert.equal(await del(server.url, "survivor"), 200);
    const after = await blobNames(server.modelsDir);
    assert.ok(after.size < before.size, "the last reference gone, its blobs are removed");
    const demo = await postJson(`${server.url}/api/show`, { model: "demo" });
    assert.equal(demo.status, 200, "demo's blobs are untouched");
  });

  it("keeps blobs of a manifest that cannot be loaded (it still references them)", async () => {
    await createTinyModel(server.url, "half-broken", 34);
    await createTinyModel(server.url, "other", 35);
    const manifestPath = join(
      server.modelsDir,
      "manifests/registry.ollama.ai/library/half-broken/latest",
    );
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as {
      layers: Array<{ digest: string; mediaType: string }>;
    };
    const model = manifest.layers.find((l) => l.mediaType.endsWith(".model"));
    assert.ok(model);
    // A missing params blob makes the manifest unloadable, yet its model blob is still in use.
    await postJson(`${server.url}/api/create`, {
      model: "half-broken",
      files: { "x.gguf": model.digest },
      parameters: { seed: 424242 },
      stream: false,
    });
    const withParams = JSON.parse(await readFile(manifestPath, "utf8")) as {
      layers: Array<{ digest: string; mediaType: string }>;
    };
    const params = withParams.layers.find((l) => l.mediaType.endsWith(".params"));
    assert.ok(params);
    await rm(join(server.modelsDir, "blobs", params.digest.replace(":", "-")));
    assert.equal(await del(server.url, "other"), 200);
    assert.ok(
      (await blobNames(server.modelsDir)).has(model.digest.replace(":", "-")),
      "the unloadable manifest's model blob is kept",
    );
  });
});

describe("a delete racing a create that inherits from the deleted model", () => {
  it("never leaves the new manifest pointing at a removed blob", async () => {
    const root = await mkdtemp(join(tmpdir(), "llmsrv-race-"));
    try {
      const store = new ModelStore(root);
      const path = join(root, "m.gguf");
      await writeDemoModel(path, { ...TINY, seed: 36 });
      const digest = await store.blobs.putFile(path);
      const a = parseModelName("race-a");
      const b = parseModelName("race-b");
      assert.ok(a && b);
      const source = await store.create(a, { modelDigest: digest, system: "kept" });
      const results = await Promise.allSettled([
        store.create(b, { from: source, parameters: { temperature: 0.1 } }),
        store.delete(source),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ["fulfilled", "fulfilled"],
      );
      const created = await store.get("race-b");
      assert.equal(created.system, "kept");
      const blobs = await readdir(join(root, "blobs"));
      for (const l of [created.manifest.config, ...created.manifest.layers])
        assert.ok(blobs.includes(l.digest.replace(":", "-")), `blob ${l.digest} present`);
      assert.equal(
        createHash("sha256")
          .update(await readFile(created.modelPath))
          .digest("hex"),
        digest.slice(7),
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
