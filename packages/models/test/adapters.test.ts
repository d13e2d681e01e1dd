import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { Ollama } from "ollama";
import { main } from "../src/cli/main.js";
import { type DemoLoraOptions, writeDemoLora } from "../src/demo/demo-lora.js";
import { digestOf, digestOfFile } from "../src/store/blob-store.js";
import {
  createTinyModel,
  postJson,
  startTestServer,
  storiesSkip,
  type TestServer,
} from "./harness.js";
import { TestRegistry } from "./registry-server.js";
import { createStories } from "./stories-model.js";

type Json = Record<string, unknown>;
const ADAPTER_MEDIA = "application/vnd.ollama.image.adapter";
/** The shape createTinyModel gives "base". */
const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };
const GREEDY = { temperature: 0, seed: 42, num_predict: 12 };

/** LoRA adapters: ADAPTER in a Modelfile and `adapters` in /api/create, applied at load. */
describe("LoRA adapters", { timeout: 600_000 }, () => {
  let server: TestServer;
  let url: string;
  let dir: string;
  let loraPath: string;
  let loraDigest: string;

  /** Writes a file into the test folder, uploads it as a blob, returns its digest. */
  async function upload(name: string, bytes: Buffer): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, bytes);
    const digest = await digestOfFile(path);
    const res = await fetch(`${url}/api/blobs/${digest}`, { method: "POST", body: bytes });
    assert.ok(res.status === 201 || res.status === 200, `upload ${name}: ${res.status}`);
    return digest;
  }

  async function uploadLora(name: string, options: DemoLoraOptions): Promise<string> {
    const path = join(dir, name);
    await writeDemoLora(path, options);
    return upload(name, await readFile(path));
  }

  async function create(body: Json): Promise<{ status: number; body: unknown; text: string }> {
    return postJson(`${url}/api/create`, { stream: false, ...body });
  }

  async function greedy(model: string): Promise<string> {
    const r = await postJson(`${url}/api/generate`, {
      model,
      prompt: "Once upon a time",
      raw: true,
      stream: false,
      options: GREEDY,
    });
    assert.equal(r.status, 200, r.text);
    return String((r.body as Json).response);
  }

  async function manifestLayers(
    model: string,
  ): Promise<Array<{ mediaType: string; digest: string }>> {
    const show = await postJson(`${url}/api/show`, { model });
    assert.equal(show.status, 200, show.text);
    const name = model.includes(":") ? model.replace(":", "/") : `${model}/latest`;
    const path = join(server.modelsDir, "manifests", "registry.ollama.ai", "library", name);
    return (JSON.parse(await readFile(path, "utf8")) as { layers: [] }).layers;
  }

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    dir = await mkdtemp(join(tmpdir(), "llmsrv-lora-"));
    await createTinyModel(url, "base", 3);
    loraPath = join(dir, "lora.gguf");
    await writeDemoLora(loraPath, { shape: TINY, seed: 7 });
    loraDigest = await upload("lora.gguf", await readFile(loraPath));
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("changes greedy output with the adapter, and the base answers as before without it", async () => {
    const r = await create({
      model: "with-lora",
      from: "base",
      adapters: { "lora.gguf": loraDigest },
    });
    assert.equal(r.status, 200, r.text);
    const plain = await create({ model: "no-lora", from: "base", adapters: {} });
    assert.equal(plain.status, 200, plain.text);
    const base = await greedy("base");
    const adapted = await greedy("with-lora");
    assert.notEqual(adapted, base, "the adapter should change the greedy answer");
    assert.equal(await greedy("no-lora"), base);
    assert.equal(await greedy("base"), base, "the base answers as before once the adapter is gone");
    assert.equal(await greedy("with-lora"), adapted, "the adapted answer is deterministic");
    // the official client sends `adapters` as Ollama's CLI does
    const client = new Ollama({ host: url });
    await client.create({
      model: "client-lora",
      from: "base",
      adapters: { "lora.gguf": loraDigest },
    });
    assert.equal(await greedy("client-lora"), adapted);
  });

  it("stores the adapter as a layer, shows it as ADAPTER, and copies and deletes carry it", async () => {
    const layers = await manifestLayers("with-lora");
    assert.deepEqual(
      layers.filter((l) => l.mediaType === ADAPTER_MEDIA).map((l) => l.digest),
      [loraDigest],
    );
    const show = await postJson(`${url}/api/show`, { model: "with-lora" });
    const modelfile = String((show.body as Json).modelfile);
    const blob = `sha256-${loraDigest.slice("sha256:".length)}`;
    assert.match(modelfile, new RegExp(`\\nADAPTER \\S+${blob}\\n`));
    assert.ok(modelfile.indexOf("ADAPTER") > modelfile.indexOf("FROM"));
    // a model FROM one with an adapter inherits it, as in Ollama
    assert.equal((await create({ model: "child", from: "with-lora" })).status, 200);
    assert.ok((await manifestLayers("child")).some((l) => l.digest === loraDigest));
    assert.equal(
      (await postJson(`${url}/api/copy`, { source: "with-lora", destination: "copied" })).status,
      200,
    );
    assert.ok((await manifestLayers("copied")).some((l) => l.digest === loraDigest));
    const blobPath = join(server.modelsDir, "blobs", blob);
    for (const model of ["with-lora", "child", "client-lora"]) {
      const del = await postJson(`${url}/api/delete`, { model }, { method: "DELETE" });
      assert.equal(del.status, 200, del.text);
    }
    assert.ok(existsSync(blobPath), "a model still using the adapter keeps its blob");
    assert.equal(await greedy("copied"), await greedy("copied"));
    assert.notEqual(await greedy("copied"), await greedy("base"));
    await postJson(`${url}/api/delete`, { model: "copied" }, { method: "DELETE" });
    assert.ok(!existsSync(blobPath), "deleting the last model using it removes the adapter blob");
    loraDigest = await upload("lora.gguf", await readFile(loraPath));
  });

  it("refuses an adapter that does not fit the model with a 400 naming the mismatch", async () => {
    const cases: Array<[string, DemoLoraOptions, RegExp]> = [
      [
        "gpt2.gguf",
        { shape: TINY, architecture: "gpt2" },
        /^invalid adapter "gpt2\.gguf": adapter architecture "gpt2" does not match model architecture "llama"$/,
      ],
      [
        "wide-ffn.gguf",
        { shape: { ...TINY, feedForwardLength: 96 }, targets: ["ffn_up"] },
        /adapter tensor blk\.0\.ffn_up\.weight\.lora_b has shape \[4, 96\] but the model's blk\.0\.ffn_up\.weight is \[64, 128\]/,
      ],
      [
        "two-blocks.gguf",
        { shape: { ...TINY, blockCount: 2 }, targets: ["attn_q"] },
        /adapts blk\.1\.attn_q\.weight, which the model does not have/,
      ],
      [
        "demo-sized.gguf",
        { targets: ["attn_v"] },
        /adapter tensor blk\.0\.attn_v\.weight\.lora_a has shape \[2048, 4\] but the model's blk\.0\.attn_v\.weight is \[64, 32\]/,
      ],
    ];
    for (const [name, options, error] of cases) {
      const digest = await uploadLora(name, options);
      for (const stream of [false, true]) {
        const r = await create({
          model: "misfit",
          from: "base",
          adapters: { [name]: digest },
          stream,
        });
        assert.equal(r.status, 400, `${name}: ${r.text}`);
        assert.match(String((r.body as Json).error), error);
      }
    }
    assert.equal((await postJson(`${url}/api/show`, { model: "misfit" })).status, 404);
  });

  it("refuses a file that is not a LoRA GGUF, an unknown blob and a malformed field", async () => {
    const text = await upload("notes.txt", Buffer.from("not a gguf at all, just some text\n"));
    const r = await create({ model: "bad", from: "base", adapters: { "notes.txt": text } });
    assert.equal(r.status, 400, r.text);
    assert.match(
      String((r.body as Json).error),
      /^invalid adapter "notes\.txt": supplied file was not in GGUF format/,
    );
    // a model GGUF is not an adapter
    const show = await postJson(`${url}/api/show`, { model: "base" });
    const modelBlob = String((show.body as Json).modelfile).match(/sha256-([0-9a-f]{64})/)?.[1];
    const asAdapter = await create({
      model: "bad",
      from: "base",
      adapters: { "model.gguf": `sha256:${modelBlob}` },
    });
    assert.equal(asAdapter.status, 400);
    assert.match(String((asAdapter.body as Json).error), /general\.type is missing, not "adapter"/);
    const missing = await create({
      model: "bad",
      from: "base",
      adapters: { "gone.gguf": `sha256:${"b".repeat(64)}` },
    });
    assert.equal(missing.status, 400);
    assert.match(
      String((missing.body as Json).error),
      /for adapter "gone\.gguf" has not been uploaded/,
    );
    const malformed = await create({ model: "bad", from: "base", adapters: ["lora.gguf"] });
    assert.equal(malformed.status, 400);
    assert.match(String((malformed.body as Json).error), /field "adapters" must be an object/);
    assert.equal((await postJson(`${url}/api/show`, { model: "bad" })).status, 404);
  });

  it("the CLI uploads ADAPTER files relative to the Modelfile; a missing one fails naming it", async () => {
    const cli = async (args: string[]) => {
      const errors: string[] = [];
      const code = await main(args, {
        env: { LLMSRV_HOST: `127.0.0.1:${server.port}` },
        stdout: { write: () => true },
        stderr: { write: (t: string) => errors.push(t) },
        stdin: Readable.from([""]),
        signal: new AbortController().signal,
      });
      return { code, errors: errors.join("") };
    };
    const file = join(dir, "Modelfile");
    await writeFile(file, "FROM base\nADAPTER ./lora.gguf\n");
    const ok = await cli(["create", "cli-lora", "-f", file]);
    assert.equal(ok.code, 0, ok.errors);
    assert.notEqual(await greedy("cli-lora"), await greedy("base"));
    assert.ok((await manifestLayers("cli-lora")).some((l) => l.digest === loraDigest));
    await writeFile(file, "FROM base\nADAPTER ./absent.gguf\n");
    const bad = await cli(["create", "cli-missing", "-f", file]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.errors, /adapter file \S*absent\.gguf does not exist/);
    assert.equal((await postJson(`${url}/api/show`, { model: "cli-missing" })).status, 404);
  });

  it("concurrent creates of one name with and without the adapter leave one consistent model", async () => {
    const base = await greedy("base");
    const adapted = await greedy("cli-lora");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        create({
          model: "racer",
          from: "base",
          adapters: i % 2 ? { "lora.gguf": loraDigest } : {},
        }),
      ),
    );
    for (const r of results) assert.equal(r.status, 200, r.text);
    const layers = await manifestLayers("racer");
    for (const l of layers)
      assert.ok(existsSync(join(server.modelsDir, "blobs", l.digest.replace(":", "-"))), l.digest);
    const hasAdapter = layers.some((l) => l.mediaType === ADAPTER_MEDIA);
    assert.equal(await greedy("racer"), hasAdapter ? adapted : base);
  });

  it("push and pull carry the adapter layer; a pulled adapter that is not a LoRA is refused", async () => {
    const registry = await new TestRegistry().start();
    const other = await startTestServer({}, { ensureDemo: false });
    try {
      const target = `${new URL(registry.url).host}/someone/adapted:v1`;
      const cp = await postJson(`${url}/api/copy`, { source: "cli-lora", destination: target });
      assert.equal(cp.status, 200, cp.text);
      const push = await postJson(`${url}/api/push`, {
        model: target,
        insecure: true,
        stream: false,
      });
      assert.equal(push.status, 200, push.text);
      const pull = await postJson(`${other.url}/api/pull`, {
        model: target,
        insecure: true,
        stream: false,
      });
      assert.equal(pull.status, 200, pull.text);
      const generate = async (server: string, model: string) => {
        const r = await postJson(`${server}/api/generate`, {
          model,
          prompt: "Once upon a time",
          raw: true,
          stream: false,
          options: GREEDY,
        });
        return String((r.body as Json).response);
      };
      assert.equal(await generate(other.url, target), await greedy("cli-lora"));
      // a manifest whose adapter layer is a model, not a LoRA adapter
      const show = await postJson(`${url}/api/show`, { model: "base" });
      const modelBlob = String((show.body as Json).modelfile).match(/\S+sha256-[0-9a-f]{64}/)?.[0];
      const model = await readFile(String(modelBlob));
      const config = Buffer.from(JSON.stringify({ model_format: "gguf", model_family: "llama" }));
      const adapterBytes = Buffer.concat([model, Buffer.from("x")]);
      const layer = (mediaType: string, b: Buffer) => ({
        mediaType,
        digest: digestOf(b),
        size: b.length,
      });
      const manifest = {
        schemaVersion: 2,
        mediaType: "application/vnd.docker.distribution.manifest.v2+json",
        config: layer("application/vnd.docker.container.image.v1+json", config),
        layers: [
          layer("application/vnd.ollama.image.model", model),
          layer(ADAPTER_MEDIA, adapterBytes),
        ],
      };
      registry.publish("library/bad-adapter:latest", Buffer.from(JSON.stringify(manifest)), [
        model,
        adapterBytes,
        config,
      ]);
      const bad = await postJson(`${other.url}/api/pull`, {
        model: `${new URL(registry.url).host}/library/bad-adapter`,
        insecure: true,
        stream: false,
      });
      assert.notEqual(bad.status, 200);
      assert.match(String((bad.body as Json).error), /general\.type is missing, not "adapter"/);
    } finally {
      await other.stop();
      await registry.stop();
    }
  });
});

/** stories260K's shape, for an adapter that fits it (and so does not fit the tiny model). */
const STORIES = {
  embeddingLength: 64,
  headCount: 8,
  headCountKv: 4,
  feedForwardLength: 172,
  blockCount: 5,
};

describe("a LoRA adapter on a real model (stories260K)", {
  skip: storiesSkip(),
  timeout: 300_000,
}, () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    dir = await mkdtemp(join(tmpdir(), "llmsrv-lora-stories-"));
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function uploadLora(name: string, options: DemoLoraOptions): Promise<string> {
    const path = join(dir, name);
    await writeDemoLora(path, options);
    const bytes = await readFile(path);
    const digest = digestOf(bytes);
    const res = await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body: bytes });
    assert.ok(res.status === 201 || res.status === 200);
    return digest;
  }

  async function greedy(model: string): Promise<string> {
    const r = await postJson(`${server.url}/api/generate`, {
      model,
      prompt: "Once upon a time",
      stream: false,
      options: GREEDY,
    });
    assert.equal(r.status, 200, r.text);
    return String((r.body as Json).response);
  }

  it("an adapter made for its shape changes its greedy story; one made for another model is a 400", async () => {
    const fits = await uploadLora("stories-lora.gguf", { shape: STORIES, seed: 3, alpha: 16 });
    await createStories(server.url, "stories");
    await createStories(server.url, "stories-lora", { adapters: { "stories-lora.gguf": fits } });
    const plain = await greedy("stories");
    assert.notEqual(await greedy("stories-lora"), plain);
    assert.equal(await greedy("stories"), plain);
    // the tiny model's adapter on stories, and stories' adapter on the tiny model
    const tiny = await uploadLora("tiny-lora.gguf", { shape: TINY, targets: ["ffn_gate"] });
    const r = await postJson(`${server.url}/api/create`, {
      model: "stories-misfit",
      from: "stories",
      adapters: { "tiny-lora.gguf": tiny },
      stream: false,
    });
    assert.equal(r.status, 400, r.text);
    assert.match(
      String((r.body as Json).error),
      /adapter tensor blk\.0\.ffn_gate\.weight\.lora_b has shape \[4, 128\] but the model's blk\.0\.ffn_gate\.weight is \[64, 172\]/,
    );
    await createTinyModel(server.url, "tiny", 3);
    const back = await postJson(`${server.url}/api/create`, {
      model: "tiny-misfit",
      from: "tiny",
      adapters: { "stories-lora.gguf": fits },
      stream: false,
    });
    assert.equal(back.status, 400, back.text);
    assert.match(String((back.body as Json).error), /^invalid adapter "stories-lora\.gguf": /);
  });
});
