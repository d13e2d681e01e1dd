import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { digestOfFile } from "../src/store/blob-store.js";
import { postJson, startTestServer, type TestServer } from "./harness.js";

/** Every manifest file under the store, as paths relative to `manifests/`. */
async function manifestFiles(modelsDir: string): Promise<string[]> {
  const entries = await readdir(join(modelsDir, "manifests"), { recursive: true });
  const files: string[] = [];
  for (const e of entries) {
    const parts = e.split("/");
    if (parts.length === 4) files.push(e);
  }
  return files.sort();
}

/** Asserts every manifest parses and every blob it references is present. */
async function assertStoreConsistent(modelsDir: string): Promise<void> {
  const blobs = new Set(await readdir(join(modelsDir, "blobs")));
  for (const f of await manifestFiles(modelsDir)) {
    const m = JSON.parse(await readFile(join(modelsDir, "manifests", f), "utf8")) as {
      config: { digest: string };
      layers: Array<{ digest: string }>;
    };
    for (const l of [m.config, ...m.layers])
      assert.ok(blobs.has(l.digest.replace(":", "-")), `${f} references missing ${l.digest}`);
  }
  assert.deepEqual(
    [...blobs].filter((b) => !/^sha256-[0-9a-f]{64}$/.test(b)),
    [],
    "no temporary files left in blobs/",
  );
}

describe("concurrent store operations", { timeout: 180_000 }, () => {
  let server: TestServer;
  let scratch: string;
  let gguf: Buffer;
  let digest: string;

  before(async () => {
    server = await startTestServer();
    scratch = await mkdtemp(join(tmpdir(), "llmsrv-conc-"));
    const path = join(scratch, "tiny.gguf");
    await writeDemoModel(path, {
      embeddingLength: 64,
      headCount: 4,
      headCountKv: 2,
      feedForwardLength: 128,
      seed: 77,
    });
    gguf = await readFile(path);
    digest = await digestOfFile(path);
  });
  after(async () => {
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it("20 concurrent uploads of one blob all succeed and leave one intact blob", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await fetch(`${server.url}/api/blobs/${digest}`, {
          method: "POST",
          body: gguf,
        });
        return res.status;
      }),
    );
    assert.ok(
      statuses.every((s) => s === 200 || s === 201),
      `statuses: ${statuses.join(",")}`,
    );
    const stored = await readFile(join(server.modelsDir, "blobs", digest.replace(":", "-")));
    assert.ok(stored.equals(gguf), "the stored blob has the uploaded bytes");
    await assertStoreConsistent(server.modelsDir);
  });

  it("20 concurrent creates of one name all answer 200 and leave one readable manifest", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postJson(`${server.url}/api/create`, {
          model: "same-name",
          files: { "tiny.gguf": digest },
          system: `writer ${i}`,
          stream: false,
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      results.map(() => 200),
      results.map((r) => r.text).join("\n"),
    );
    const files = (await manifestFiles(server.modelsDir)).filter((f) => f.includes("same-name"));
    assert.deepEqual(files, ["registry.ollama.ai/library/same-name/latest"]);
    const show = await postJson(`${server.url}/api/show`, { model: "same-name" });
    assert.equal(show.status, 200, show.text);
    assert.match((show.body as { system: string }).system, /^writer \d+$/);
    await assertStoreConsistent(server.modelsDir);
  });

  it("20 concurrent creates of different names sharing one blob all succeed", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postJson(`${server.url}/api/create`, {
          model: `shared-${i}`,
          files: { "tiny.gguf": digest },
          parameters: { temperature: 0.5 },
          stream: false,
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      results.map(() => 200),
      results.map((r) => r.text).join("\n"),
    );
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as {
      models: Array<{ name: string }>;
    };
    for (let i = 0; i < 20; i++)
      assert.ok(
        tags.models.some((m) => m.name === `shared-${i}:latest`),
        `shared-${i} listed`,
      );
    await assertStoreConsistent(server.modelsDir);
  });
});
