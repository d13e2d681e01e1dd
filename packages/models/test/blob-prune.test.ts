import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { createLogger } from "../src/logger.js";
import { type RunningServer, startServer } from "../src/server.js";
import { digestOfFile } from "../src/store/blob-store.js";
import { postJson, testConfig, waitFor } from "./harness.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };

function blobFile(digest: string): string {
  return digest.replace(":", "-");
}

async function blobNames(modelsDir: string): Promise<Set<string>> {
  return new Set(await readdir(join(modelsDir, "blobs")));
}

/** A server on `modelsDir` that keeps the folder when closed (a restart reuses it). */
async function serve(modelsDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const config = testConfig(modelsDir, env);
  return startServer(config, createLogger(config.logLevel), {});
}

/** Writes a tiny GGUF and uploads it; returns its digest. */
async function upload(url: string, scratch: string, seed: number): Promise<string> {
  const path = join(scratch, `tiny-${seed}.gguf`);
  await writeDemoModel(path, { ...TINY, seed });
  const digest = await digestOfFile(path);
  const res = await fetch(`${url}/api/blobs/${digest}`, {
    method: "POST",
    body: await readFile(path),
  });
  assert.ok(res.status === 201 || res.status === 200, `upload answered ${res.status}`);
  return digest;
}

async function create(url: string, model: string, digest: string, system?: string) {
  return postJson(`${url}/api/create`, {
    model,
    files: { "m.gguf": digest },
    ...(system !== undefined && { system }),
    stream: false,
  });
}

describe("replaced layers are deleted when no manifest references them", {
  timeout: 180_000,
}, () => {
  let dir: string;
  let scratch: string;
  let server: RunningServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-prune-"));
    scratch = await mkdtemp(join(tmpdir(), "llmsrv-prune-src-"));
    server = await serve(dir);
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it("create m from a.gguf, then from b.gguf: a's blob goes; rm m: b's goes too", async () => {
    const a = await upload(server.url, scratch, 41);
    assert.equal((await create(server.url, "m", a)).status, 200);
    const b = await upload(server.url, scratch, 42);
    assert.equal((await create(server.url, "m", b)).status, 200);
    const afterReplace = await blobNames(dir);
    assert.ok(!afterReplace.has(blobFile(a)), "a.gguf's blob was replaced and is deleted");
    assert.ok(afterReplace.has(blobFile(b)));
    const del = await postJson(`${server.url}/api/delete`, { model: "m" }, { method: "DELETE" });
    assert.equal(del.status, 200);
    assert.deepEqual([...(await blobNames(dir))], [], "nothing of m is left");
  });

  it("keeps a replaced layer that another model still references", async () => {
    const a = await upload(server.url, scratch, 43);
    assert.equal((await create(server.url, "first", a, "shared system")).status, 200);
    assert.equal((await create(server.url, "second", a, "shared system")).status, 200);
    assert.equal((await create(server.url, "first", a, "another system")).status, 200);
    const names = await blobNames(dir);
    assert.ok(names.has(blobFile(`sha256:${sha256("shared system")}`)), "second still uses it");
    assert.ok(names.has(blobFile(a)));
  });

  it("10 concurrent creates of one name leave only the winner's SYSTEM layer", async () => {
    const a = await upload(server.url, scratch, 44);
    const systems = Array.from({ length: 10 }, (_, i) => `system number ${i}`);
    const results = await Promise.all(systems.map((s) => create(server.url, "racy", a, s)));
    assert.deepEqual(
      results.map((r) => r.status),
      systems.map(() => 200),
    );
    const show = await postJson(`${server.url}/api/show`, { model: "racy" });
    const winner = (show.body as { system: string }).system;
    const left = async () => {
      const names = await blobNames(dir);
      return systems.filter((s) => names.has(blobFile(`sha256:${sha256(s)}`)));
    };
    // A layer still pinned by its own request when replaced is removed once released.
    await waitFor(async () => (await left()).length === 1, 10_000, "orphan SYSTEM layers removed");
    assert.deepEqual(await left(), [winner]);
  });
});

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

describe("LLMSRV_NOPRUNE=1 keeps replaced layers and unused uploads", { timeout: 120_000 }, () => {
  it("a replaced model blob stays, and a restart removes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llmsrv-noprune-"));
    const scratch = await mkdtemp(join(tmpdir(), "llmsrv-noprune-src-"));
    try {
      let server = await serve(dir, { LLMSRV_NOPRUNE: "1" });
      const a = await upload(server.url, scratch, 45);
      assert.equal((await create(server.url, "kept", a)).status, 200);
      const b = await upload(server.url, scratch, 46);
      assert.equal((await create(server.url, "kept", b)).status, 200);
      const unused = await upload(server.url, scratch, 47);
      await server.close();
      await age(join(dir, "blobs"));
      server = await serve(dir, { LLMSRV_NOPRUNE: "1" });
      await server.close();
      const names = await blobNames(dir);
      for (const d of [a, b, unused]) assert.ok(names.has(blobFile(d)), `${d} kept`);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

/** Sets every file's modification time an hour back (older than the prune's grace). */
async function age(blobs: string, except: readonly string[] = []): Promise<void> {
  const past = new Date(Date.now() - 60 * 60_000);
  for (const name of await readdir(blobs))
    if (!except.includes(name)) await utimes(join(blobs, name), past, past);
}

describe("start-up prunes blobs no manifest references", { timeout: 120_000 }, () => {
  it("removes old unused uploads and dead uploads' temporary files; keeps used, fresh and pull partial files", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llmsrv-startprune-"));
    const scratch = await mkdtemp(join(tmpdir(), "llmsrv-startprune-src-"));
    try {
      let server = await serve(dir);
      const used = await upload(server.url, scratch, 48);
      assert.equal((await create(server.url, "used", used)).status, 200);
      const stale = await upload(server.url, scratch, 49);
      const fresh = await upload(server.url, scratch, 50);
      await server.close();
      const blobs = join(dir, "blobs");
      const hex = "ab".repeat(32);
      const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
      await writeFile(join(blobs, `sha256-${hex}-partial`), "a pull to resume");
      await writeFile(join(blobs, `sha256-${hex}-partial-${deadPid}-0a1b2c`), "dead upload");
      await writeFile(join(blobs, `sha256-${hex}-partial-${process.pid}-0a1b2c`), "live upload");
      await age(blobs, [blobFile(fresh)]);
      const before = await blobNames(dir);
      server = await serve(dir);
      const show = await postJson(`${server.url}/api/show`, { model: "used" });
      await server.close();
      assert.equal(show.status, 200, "the model still works");
      const names = await blobNames(dir);
      const removed = [...before].filter((n) => !names.has(n)).sort();
      assert.deepEqual(
        removed,
        [blobFile(stale), `sha256-${hex}-partial-${deadPid}-0a1b2c`].sort(),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("removes nothing when a manifest cannot be parsed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llmsrv-startprune-bad-"));
    const scratch = await mkdtemp(join(tmpdir(), "llmsrv-startprune-bad-src-"));
    try {
      let server = await serve(dir);
      const unused = await upload(server.url, scratch, 51);
      await server.close();
      const broken = join(dir, "manifests/registry.ollama.ai/library/broken");
      await import("node:fs/promises").then((fs) => fs.mkdir(broken, { recursive: true }));
      await writeFile(join(broken, "latest"), "{not json");
      await age(join(dir, "blobs"));
      server = await serve(dir);
      await server.close();
      assert.ok((await blobNames(dir)).has(blobFile(unused)));
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
