import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeDemoModel } from "../src/demo/demo-model.js";
import {
  createTinyModel,
  postJson,
  startStreaming,
  startTestServer,
  type TestServer,
} from "./harness.js";
import { buildModel, TestRegistry } from "./registry-server.js";

type Line = {
  status?: string;
  digest?: string;
  total?: number;
  completed?: number;
  error?: string;
};

async function tinyGguf(seed: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "llmsrv-reg-"));
  try {
    const path = join(dir, "m.gguf");
    await writeDemoModel(path, {
      name: `tiny${seed}`,
      embeddingLength: 64,
      headCount: 4,
      headCountKv: 2,
      feedForwardLength: 128,
      seed,
    });
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** POSTs and returns every NDJSON line of the streamed answer. */
async function streamLines(url: string, body: unknown): Promise<Line[]> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  return (await res.text())
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Line);
}

const statuses = (lines: Line[]) => lines.map((l) => l.status ?? `error: ${l.error}`);
const hex = (digest: string) => digest.slice(7);
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

async function tags(server: TestServer): Promise<Map<string, string>> {
  const res = await fetch(`${server.url}/api/tags`);
  const body = (await res.json()) as { models: Array<{ name: string; digest: string }> };
  return new Map(body.models.map((m) => [m.name, m.digest]));
}

async function storeFiles(server: TestServer): Promise<string[]> {
  const blobs = await readdir(join(server.modelsDir, "blobs")).catch(() => []);
  return blobs.sort();
}

describe("pull and push against a registry in the test process", { timeout: 300_000 }, () => {
  let registry: TestRegistry;
  let server: TestServer;
  let pullUrl: string;
  let models: Array<ReturnType<typeof buildModel>>;

  before(async () => {
    registry = await new TestRegistry("sekret").start();
    server = await startTestServer(
      { LLMSRV_REGISTRY: registry.url, LLMSRV_REGISTRY_TOKEN: "sekret" },
      // Retries wait 1, 2, 4... ms instead of Ollama's seconds.
      { ensureDemo: false, pullRetryDelayMs: 1 },
    );
    pullUrl = `${server.url}/api/pull`;
    models = [];
    for (const seed of [1, 2, 3, 4, 5])
      models.push(buildModel(await tinyGguf(seed), { temperature: seed / 10 }));
    const [a] = models as [ReturnType<typeof buildModel>];
    registry.publish("library/tiny:latest", a.manifest, a.blobs);
  });
  after(async () => {
    await server.stop();
    await registry.stop();
  });

  it("pulls a model, streaming Ollama's progress lines, with the token", async () => {
    const lines = await streamLines(pullUrl, { model: "tiny" });
    const s = statuses(lines);
    assert.equal(s[0], "pulling manifest");
    assert.deepEqual(s.slice(-3), ["verifying sha256 digest", "writing manifest", "success"]);
    const a = models[0] as ReturnType<typeof buildModel>;
    const modelLines = lines.filter((l) => l.digest === `sha256:${a.modelDigest.slice(7)}`);
    assert.ok(modelLines.length >= 2, "progress for the model layer");
    for (const l of modelLines) {
      assert.equal(l.status, `pulling ${hex(a.modelDigest).slice(0, 12)}`);
      assert.equal(l.total, a.blobs[0]?.length);
    }
    assert.equal(modelLines.at(-1)?.completed, a.blobs[0]?.length);
    assert.equal((await tags(server)).get("tiny:latest"), sha(a.manifest));
    const show = await postJson(`${server.url}/api/show`, { model: "tiny" });
    assert.match((show.body as { parameters: string }).parameters, /temperature\s+0\.1/);
    assert.ok(registry.requests.every((r) => r.authorization === "Bearer sekret"));
  });

  it("skips blobs already present", async () => {
    const before = registry.requests.length;
    const lines = await streamLines(pullUrl, { model: "tiny:latest" });
    assert.equal(lines.at(-1)?.status, "success");
    const blobGets = registry.requests.slice(before).filter((r) => r.path.includes("/blobs/"));
    assert.deepEqual(blobGets, []);
    for (const l of lines.filter((x) => x.digest)) assert.equal(l.completed, l.total);
  });

  it("answers a name the registry lacks in Ollama's words, streamed and not", async () => {
    const lines = await streamLines(pullUrl, { model: "nothing-here" });
    assert.deepEqual(statuses(lines), [
      "pulling manifest",
      "error: pull model manifest: file does not exist",
    ]);
    const flat = await postJson(pullUrl, { model: "nothing-here", stream: false });
    assert.equal(flat.status, 404);
    assert.deepEqual(flat.body, { error: "pull model manifest: file does not exist" });
  });

  it("retries a download cut mid-blob within the pull, resuming each time with Range", async () => {
    const b = models[3] as ReturnType<typeof buildModel>;
    const size = b.blobs[0]?.length as number;
    registry.publish("library/retry:latest", b.manifest, b.blobs);
    const quarter = Math.floor(size / 4);
    registry.cutAfter.set(b.modelDigest, quarter);
    registry.cutTimes.set(b.modelDigest, 2);
    const lines = await streamLines(pullUrl, { model: "retry" });
    assert.equal(lines.at(-1)?.status, "success", JSON.stringify(lines.at(-1)));
    const gets = registry.requests.filter((r) => r.path.endsWith(b.modelDigest));
    assert.deepEqual(
      gets.map((r) => r.range),
      [undefined, `bytes=${quarter}-`, `bytes=${2 * quarter}-`],
      "each retry asks only for the bytes not yet written",
    );
    assert.equal(registry.bytesSent.get(b.modelDigest), size, "no byte sent twice");
    assert.equal((await tags(server)).get("retry:latest"), sha(b.manifest));
    const blob = join(server.modelsDir, "blobs", `sha256-${hex(b.modelDigest)}`);
    assert.equal(sha(await readFile(blob)), hex(b.modelDigest), "the digest was verified");
  });

  it("fails after six cut-off attempts, keeping no blob or manifest; the next pull resumes", async () => {
    const b = models[1] as ReturnType<typeof buildModel>;
    const size = b.blobs[0]?.length as number;
    registry.publish("library/cut:latest", b.manifest, b.blobs);
    const tenth = Math.floor(size / 10);
    registry.cutAfter.set(b.modelDigest, tenth);
    registry.cutTimes.set(b.modelDigest, 6);
    registry.requests.length = 0;
    const files = await storeFiles(server);
    const first = await streamLines(pullUrl, { model: "cut" });
    assert.match(
      first.at(-1)?.error ?? "",
      /max retries exceeded: download interrupted after \d+ of \d+ bytes in each of 6 attempts \(pull again to resume\)/,
    );
    assert.equal(registry.requests.filter((r) => r.path.endsWith(b.modelDigest)).length, 6);
    assert.equal((await tags(server)).has("cut:latest"), false);
    const partial = join(server.modelsDir, "blobs", `sha256-${hex(b.modelDigest)}-partial`);
    const kept = (await stat(partial)).size;
    assert.equal(kept, 6 * tenth, "the partial file keeps every byte received");
    assert.deepEqual(
      (await storeFiles(server)).filter((f) => !f.endsWith("-partial")),
      files.filter((f) => !f.endsWith("-partial")),
      "no new blob",
    );
    registry.requests.length = 0;
    const second = await streamLines(pullUrl, { model: "cut" });
    assert.equal(second.at(-1)?.status, "success");
    const ranged = registry.requests.filter((r) => r.path.endsWith(b.modelDigest));
    assert.deepEqual(
      ranged.map((r) => r.range),
      [`bytes=${kept}-`],
    );
    assert.equal((await tags(server)).get("cut:latest"), sha(b.manifest));
  });

  it("starts a retried download over when the registry ignores Range", async () => {
    const b = models[4] as ReturnType<typeof buildModel>;
    const size = b.blobs[0]?.length as number;
    registry.publish("library/norange:latest", b.manifest, b.blobs);
    const half = Math.floor(size / 2);
    registry.cutAfter.set(b.modelDigest, half);
    registry.ignoreRange = true;
    registry.bytesSent.delete(b.modelDigest);
    try {
      const lines = await streamLines(pullUrl, { model: "norange" });
      assert.equal(lines.at(-1)?.status, "success", JSON.stringify(lines.at(-1)));
    } finally {
      registry.ignoreRange = false;
    }
    assert.equal(registry.bytesSent.get(b.modelDigest), half + size);
    assert.equal((await tags(server)).get("norange:latest"), sha(b.manifest));
  });

  it("refuses a blob whose bytes do not match its digest and leaves the store as it was", async () => {
    const c = models[2] as ReturnType<typeof buildModel>;
    registry.publish("library/bad:latest", c.manifest, c.blobs);
    const wrong = Buffer.from(c.blobs[0] as Buffer);
    wrong[wrong.length - 1] ^= 0xff;
    registry.corrupt.set(c.modelDigest, wrong);
    const files = await storeFiles(server);
    const lines = await streamLines(pullUrl, { model: "bad" });
    assert.ok(statuses(lines).includes("verifying sha256 digest"));
    assert.match(
      lines.at(-1)?.error ?? "",
      new RegExp(
        `digest mismatch, file must be downloaded again: want ${c.modelDigest}, got sha256:${sha(wrong)}`,
      ),
    );
    const blobsOnly = (list: string[]) => list.filter((f) => !f.endsWith("-partial"));
    assert.deepEqual(blobsOnly(await storeFiles(server)), blobsOnly(files), "no new blob");
    assert.ok(
      !(await storeFiles(server)).includes(`sha256-${hex(c.modelDigest)}-partial`),
      "the wrong bytes are not kept for a resume",
    );
    assert.equal((await tags(server)).has("bad:latest"), false);
    registry.corrupt.delete(c.modelDigest);
  });

  it("stops a blob longer than its manifest size says, keeping nothing of it", async () => {
    const m = buildModel(await tinyGguf(31), { temperature: 0.6 });
    registry.publish("library/long:latest", m.manifest, m.blobs);
    const longer = Buffer.concat([m.blobs[0] as Buffer, Buffer.alloc(4096, 7)]);
    registry.corrupt.set(m.modelDigest, longer);
    const files = await storeFiles(server);
    const lines = await streamLines(pullUrl, { model: "long" });
    assert.match(
      lines.at(-1)?.error ?? "",
      new RegExp(`the registry sent more than the manifest's ${m.blobs[0]?.length} bytes`),
    );
    const blobsOnly = (list: string[]) => list.filter((f) => !f.endsWith("-partial"));
    assert.deepEqual(blobsOnly(await storeFiles(server)), blobsOnly(files));
    assert.ok(!(await storeFiles(server)).includes(`sha256-${hex(m.modelDigest)}-partial`));
    registry.corrupt.delete(m.modelDigest);
  });

  it("refuses a model layer that is not a valid GGUF, keeping nothing of it", async () => {
    const text = Buffer.from("this is not a model at all, just text\n".repeat(50));
    const m = buildModel(text, { temperature: 0.7 });
    registry.publish("library/notgguf:latest", m.manifest, m.blobs);
    const files = await storeFiles(server);
    const lines = await streamLines(pullUrl, { model: "notgguf" });
    assert.match(
      lines.at(-1)?.error ?? "",
      /supplied file was not in GGUF format/,
      JSON.stringify(lines),
    );
    const blobsOnly = (list: string[]) => list.filter((f) => !f.endsWith("-partial"));
    assert.deepEqual(blobsOnly(await storeFiles(server)), blobsOnly(files));
    assert.ok(!(await storeFiles(server)).includes(`sha256-${hex(m.modelDigest)}-partial`));
    assert.equal((await tags(server)).has("notgguf:latest"), false);
  });

  it("runs two pulls of one new model at once: both succeed, each blob is fetched once", async () => {
    const m = buildModel(await tinyGguf(11), { temperature: 0.2 });
    registry.publish("library/twice:latest", m.manifest, m.blobs);
    const [x, y] = await Promise.all([
      streamLines(pullUrl, { model: "twice" }),
      streamLines(pullUrl, { model: "twice" }),
    ]);
    assert.equal(x.at(-1)?.status, "success");
    assert.equal(y.at(-1)?.status, "success");
    assert.equal(registry.bytesSent.get(m.modelDigest), m.blobs[0]?.length);
    assert.equal((await tags(server)).get("twice:latest"), sha(m.manifest));
  });

  it("pulls a new version of a model while a generation on it runs", async () => {
    const stream = await startStreaming(server.url, {
      model: "tiny",
      prompt: "hello",
      options: { num_predict: 64 },
    });
    const b = models[1] as ReturnType<typeof buildModel>;
    registry.publish("library/tiny:latest", b.manifest, b.blobs);
    const lines = await streamLines(pullUrl, { model: "tiny" });
    assert.equal(lines.at(-1)?.status, "success");
    await stream.done;
    assert.equal((await tags(server)).get("tiny:latest"), sha(b.manifest));
    const gen = await postJson(`${server.url}/api/generate`, {
      model: "tiny",
      prompt: "again",
      stream: false,
      options: { num_predict: 4 },
    });
    assert.equal(gen.status, 200, gen.text);
  });

  it("pulls a name with its own host over plain HTTP only with insecure", async () => {
    const host = new URL(registry.url).host;
    const lines = await streamLines(pullUrl, { model: `${host}/library/cut`, insecure: true });
    assert.equal(lines.at(-1)?.status, "success");
    assert.ok((await tags(server)).has(`${host}/library/cut:latest`));
    const tls = await streamLines(pullUrl, { model: `${host}/library/tiny` });
    assert.match(tls.at(-1)?.error ?? "", /could not reach registry https:\/\//);
  });

  it("pushes the blobs the registry lacks, then the manifest; a second push uploads nothing", async () => {
    await createTinyModel(server.url, "mine", 7);
    const host = new URL(registry.url).host;
    const target = `${host}/someone/mine:v1`;
    const cp = await postJson(`${server.url}/api/copy`, { source: "mine", destination: target });
    assert.equal(cp.status, 200);
    const before = registry.requests.length;
    const lines = await streamLines(`${server.url}/api/push`, { model: target, insecure: true });
    const s = statuses(lines);
    assert.equal(s[0], "retrieving manifest");
    assert.deepEqual(s.slice(-2), ["pushing manifest", "success"]);
    assert.ok(s.some((x) => /^pushing [0-9a-f]{12}$/.test(x)));
    const uploads = registry.requests.slice(before).filter((r) => r.method === "POST");
    assert.ok(uploads.length >= 2, "model and config blobs uploaded");
    const local = await readFile(
      join(server.modelsDir, "manifests", host, "someone", "mine", "v1"),
    );
    assert.deepEqual(registry.manifests.get("someone/mine:v1"), local);
    const again = registry.requests.length;
    const second = await streamLines(`${server.url}/api/push`, { model: target, insecure: true });
    assert.equal(second.at(-1)?.status, "success");
    assert.equal(registry.requests.slice(again).filter((r) => r.method === "POST").length, 0);
    // The pushed model pulls back into a fresh store.
    const other = await startTestServer({ LLMSRV_REGISTRY_TOKEN: "sekret" }, { ensureDemo: false });
    try {
      const back = await streamLines(`${other.url}/api/pull`, { model: target, insecure: true });
      assert.equal(back.at(-1)?.status, "success", JSON.stringify(back.at(-1)));
      assert.equal((await tags(other)).get(`${host}/someone/mine:v1`), sha(local));
    } finally {
      await other.stop();
    }
  });
});

describe("registry token challenge (the Docker registry token flow)", { timeout: 120_000 }, () => {
  it("answers a Bearer challenge at its realm and pulls with the issued token", async () => {
    const registry = await new TestRegistry(undefined, true).start();
    const server = await startTestServer({ LLMSRV_REGISTRY: registry.url }, { ensureDemo: false });
    try {
      const m = buildModel(await tinyGguf(21), { temperature: 0.4 });
      registry.publish("library/guarded:latest", m.manifest, m.blobs);
      const lines = await streamLines(`${server.url}/api/pull`, { model: "guarded" });
      assert.equal(lines.at(-1)?.status, "success", JSON.stringify(lines.at(-1)));
      const tokenRequests = registry.requests.filter((r) => r.path === "/token");
      assert.equal(tokenRequests.length, 1, "one token, reused for every blob");
      const issued = `Bearer ${TestRegistry.issuedFor("repository:library/guarded:pull")}`;
      const blobGets = registry.requests.filter((r) => r.path.includes("/blobs/"));
      assert.ok(blobGets.length >= 3);
      assert.ok(blobGets.every((r) => r.authorization === issued));
    } finally {
      await server.stop();
      await registry.stop();
    }
  });
});
