import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ollama } from "ollama";
import { createTinyModel, postJson, startTestServer, type TestServer } from "./harness.js";

function sha(bytes: Buffer | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

describe("model management: blobs, create, copy, delete", { timeout: 180_000 }, () => {
  let server: TestServer;
  let ollama: Ollama;
  /** Files the tests write outside the store (a Modelfile, a GGUF to import). */
  let scratch: string;

  before(async () => {
    server = await startTestServer();
    ollama = new Ollama({ host: server.url });
    scratch = await mkdtemp(join(tmpdir(), "llmsrv-manage-"));
  });
  after(async () => {
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it("HEAD /api/blobs answers 404 then 200; POST stores with 201 then 200", async () => {
    const body = Buffer.from("some blob bytes");
    const digest = sha(body);
    assert.equal(
      (await fetch(`${server.url}/api/blobs/${digest}`, { method: "HEAD" })).status,
      404,
    );
    assert.equal(
      (await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body })).status,
      201,
    );
    assert.equal(
      (await fetch(`${server.url}/api/blobs/${digest.replace(":", "-")}`, { method: "HEAD" }))
        .status,
      200,
    );
    assert.equal(
      (await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body })).status,
      200,
    );
  });

  it("rejects a blob whose bytes do not match its digest, keeping nothing", async () => {
    const claimed = sha("other bytes");
    const res = await fetch(`${server.url}/api/blobs/${claimed}`, {
      method: "POST",
      body: "real bytes",
    });
    assert.equal(res.status, 400);
    const { error } = (await res.json()) as { error: string };
    assert.equal(error, `digest mismatch, expected "${claimed}", got "${sha("real bytes")}"`);
    assert.equal(
      (await fetch(`${server.url}/api/blobs/${claimed}`, { method: "HEAD" })).status,
      404,
    );
    const names = await readdir(join(server.modelsDir, "blobs"));
    assert.ok(!names.some((n) => n.includes("partial")), "no partial file left");
  });

  it("rejects a malformed digest with 400", async () => {
    const res = await fetch(`${server.url}/api/blobs/md5:abc`, { method: "POST", body: "x" });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: "invalid digest format" });
  });

  it("rejects creating a model from a file that is not GGUF with 400 naming the problem", async () => {
    const body = Buffer.from("this is not a model at all");
    const digest = sha(body);
    await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body });
    const res = await postJson(`${server.url}/api/create`, {
      model: "broken",
      files: { "x.gguf": digest },
    });
    assert.equal(res.status, 400);
    assert.match(
      (res.body as { error: string }).error,
      /^supplied file was not in GGUF format: the file does not start with the GGUF magic bytes/,
    );
    assert.ok(!(await ollama.list()).models.some((m) => m.name.startsWith("broken")));
  });

  it("rejects creating from a server-side path that is not GGUF, storing no blob", async () => {
    const path = join(scratch, "not-gguf.txt");
    await writeFile(path, "plain text, definitely not GGUF");
    const blobsBefore = await readdir(join(server.modelsDir, "blobs"));
    const res = await postJson(`${server.url}/api/create`, { model: "from-path", from: path });
    assert.equal(res.status, 400);
    assert.match((res.body as { error: string }).error, /not in GGUF format/);
    assert.deepEqual(await readdir(join(server.modelsDir, "blobs")), blobsBefore);
  });

  it("rejects create requests without a source, with absolute file names, or with bad parameters", async () => {
    const none = await postJson(`${server.url}/api/create`, { model: "x" });
    assert.deepEqual(none.body, { error: "neither 'from' or 'files' was specified" });
    const abs = await postJson(`${server.url}/api/create`, {
      model: "x",
      files: { "/etc/x.gguf": sha("a") },
    });
    assert.deepEqual(abs.body, { error: "file path must be relative" });
    const params = await postJson(`${server.url}/api/create`, {
      model: "x",
      from: "demo",
      parameters: { temperature: "warm" },
    });
    assert.equal(params.status, 400);
    assert.match((params.body as { error: string }).error, /temperature/);
    const ghost = await postJson(`${server.url}/api/create`, { model: "x", from: "ghost" });
    assert.equal(ghost.status, 404);
  });

  it("creates from an existing model with parameters, system, template and license, streaming progress", async () => {
    const statuses: string[] = [];
    for await (const p of await ollama.create({
      model: "custom:v1",
      from: "demo",
      system: "You are terse.",
      template: "{{ if .System }}{{ .System }} {{ end }}Q: {{ .Prompt }} A:",
      parameters: { temperature: 0.2, num_predict: 3 },
      license: "MIT",
      stream: true,
    })) {
      statuses.push(p.status);
    }
    assert.equal(statuses.at(-1), "success");
    const show = await ollama.show({ model: "custom:v1" });
    assert.equal(show.system, "You are terse.");
    assert.match(show.parameters, /temperature\s+0\.2/);
    assert.equal(show.license, "MIT");
    assert.match(show.modelfile, /SYSTEM """You are terse\."""/);
    const r = await ollama.generate({ model: "custom:v1", prompt: "hi", stream: false });
    assert.equal(r.eval_count, 3, "num_predict from the model's parameters applies");
    const rendered = await ollama.generate({
      model: "demo",
      prompt: "You are terse. Q: hi A:",
      raw: true,
      stream: false,
      options: { num_predict: 1 },
    });
    assert.equal(
      r.prompt_eval_count,
      rendered.prompt_eval_count,
      "the Modelfile template rendered the prompt: as many tokens as that text sent raw",
    );
    const entry = (await ollama.list()).models.find((m) => m.name === "custom:v1");
    assert.equal(entry?.details.parent_model, "demo:latest");
  });

  it("copies a model (same digest of weights, new name) and 404s for an unknown source", async () => {
    await ollama.copy({ source: "demo", destination: "demo-copy:latest" });
    const models = (await ollama.list()).models;
    const a = models.find((m) => m.name === "demo:latest");
    const b = models.find((m) => m.name === "demo-copy:latest");
    assert.equal(a?.digest, b?.digest);
    const missing = await postJson(`${server.url}/api/copy`, {
      source: "ghost",
      destination: "g2",
    });
    assert.deepEqual([missing.status, missing.body], [404, { error: 'model "ghost" not found' }]);
    const bad = await postJson(`${server.url}/api/copy`, {
      source: "demo",
      destination: "bad name",
    });
    assert.deepEqual([bad.status, bad.body], [400, { error: 'destination "bad name" is invalid' }]);
  });

  it("deletes a model, keeping blobs other models use and pruning the ones nobody uses", async () => {
    await createTinyModel(server.url, "tiny-del", 21);
    const before = new Set(await readdir(join(server.modelsDir, "blobs")));
    await ollama.delete({ model: "demo-copy" });
    assert.ok(!(await ollama.list()).models.some((m) => m.name === "demo-copy:latest"));
    assert.ok(
      (await ollama.list()).models.some((m) => m.name === "demo:latest"),
      "the original survives",
    );
    assert.equal(
      (
        await ollama.generate({
          model: "demo",
          prompt: "x",
          stream: false,
          options: { num_predict: 1 },
        })
      ).done,
      true,
    );
    await ollama.delete({ model: "tiny-del" });
    const after = new Set(await readdir(join(server.modelsDir, "blobs")));
    assert.ok(after.size < before.size, "the tiny model's own blobs were pruned");
    const again = await postJson(
      `${server.url}/api/delete`,
      { model: "tiny-del" },
      { method: "DELETE" },
    );
    assert.equal(again.status, 404);
  });

  it("writes manifests in Ollama's layout", async () => {
    const hosts = await readdir(join(server.modelsDir, "manifests"));
    assert.deepEqual(hosts, ["registry.ollama.ai"]);
    const tags = await readdir(
      join(server.modelsDir, "manifests", "registry.ollama.ai", "library", "demo"),
    );
    assert.deepEqual(tags, ["latest"]);
  });

  it("creates from a Modelfile through the CLI, uploading the GGUF blob", async () => {
    const { main } = await import("../src/cli/main.js");
    const { writeDemoModel } = await import("../src/demo/demo-model.js");
    const gguf = join(scratch, "cli.gguf");
    await writeDemoModel(gguf, {
      embeddingLength: 64,
      headCount: 4,
      headCountKv: 2,
      feedForwardLength: 128,
      seed: 5,
    });
    const modelfile = join(scratch, "Modelfile");
    await writeFile(
      modelfile,
      `# test\nFROM ${gguf}\nPARAMETER stop "END"\nPARAMETER stop "FIN"\nSYSTEM """multi\nline"""\n`,
    );
    let out = "";
    let err = "";
    const io = {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
      stdin: process.stdin,
      signal: new AbortController().signal,
      env: { LLMSRV_HOST: server.url },
    };
    const code = await main(["create", "from-file", "-f", modelfile], io);
    assert.equal(code, 0, err);
    assert.match(err, /success/);
    const show = await ollama.show({ model: "from-file" });
    assert.equal(show.system, "multi\nline");
    assert.match(show.parameters, /stop\s+"END"\nstop\s+"FIN"/);
    assert.equal(out, "");
  });
});
