// Projector layers and images/audio through the API: create, show, CLI, checks, [img-N] prompts, OpenAI parts.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { main } from "../src/cli/main.js";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { b64, JPEG, MP3_FRAME, PNG, WAV, WEBP } from "../src/media/test-media.js";
import { digestOf, digestOfFile } from "../src/store/blob-store.js";
import { postJson, startTestServer, type TestServer } from "./harness.js";
import { writeTestProjector } from "./projector-gguf.js";
import { RecordingRuntime } from "./recording-runtime.js";
import { TestRegistry } from "./registry-server.js";

type Json = Record<string, unknown>;
const PROJECTOR_MEDIA = "application/vnd.ollama.image.projector";
/** Renders every message as <role>content, so tests read where the tags went. */
const TEMPLATE = "{{ range .Messages }}<{{ .Role }}>{{ .Content }}{{ end }}<assistant>";

describe("projectors: create, show, and images and audio in requests", { timeout: 600_000 }, () => {
  let server: TestServer;
  let url: string;
  let dir: string;
  // Kept for what only the runtime sees (multimodal.test.ts covers the rest with the real one):
  // the exact prompt with its [img-N] tags, the media order, the LoadSpec's projector and memory.
  const runtime = new RecordingRuntime();
  const digests: Record<string, string> = {};

  /** Writes a file into the test folder and uploads it as a blob; returns its digest. */
  async function upload(name: string, write: (path: string) => Promise<void>): Promise<string> {
    const path = join(dir, name);
    await write(path);
    const digest = await digestOfFile(path);
    const res = await fetch(`${url}/api/blobs/${digest}`, {
      method: "POST",
      body: await readFile(path),
    });
    assert.ok(res.status === 201 || res.status === 200, `upload ${name}: ${res.status}`);
    digests[name] = digest;
    return digest;
  }

  const create = (body: Json) => postJson(`${url}/api/create`, { stream: false, ...body });
  const show = async (model: string) => (await postJson(`${url}/api/show`, { model })).body as Json;
  const errorOf = (r: { body: unknown }) => String((r.body as Json).error);

  async function cli(args: string[]): Promise<{ code: number; out: string; errors: string }> {
    const out: string[] = [];
    const errors: string[] = [];
    const code = await main(args, {
      env: { LLMSRV_HOST: `127.0.0.1:${server.port}` },
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => errors.push(t) },
      stdin: Readable.from([""]),
      signal: new AbortController().signal,
    });
    return { code, out: out.join(""), errors: errors.join("") };
  }

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false, runtime });
    url = server.url;
    dir = await mkdtemp(join(tmpdir(), "llmsrv-projector-"));
    await upload("tiny.gguf", (p) =>
      writeDemoModel(p, {
        name: "tiny",
        embeddingLength: 64,
        headCount: 4,
        headCountKv: 2,
        feedForwardLength: 128,
        seed: 3,
      }),
    );
    await upload("vision.gguf", (p) => writeTestProjector(p, { vision: true }));
    await upload("audio.gguf", (p) => writeTestProjector(p, { vision: false, audio: true }));
    await upload("av.gguf", (p) => writeTestProjector(p, { vision: true, audio: true }));
    await upload("none.gguf", (p) => writeTestProjector(p, { vision: false, audio: false }));
    await upload("notes.txt", (p) => writeFile(p, "not a projector"));
    const base = await create({ model: "base", files: { "tiny.gguf": digests["tiny.gguf"] } });
    assert.equal(base.status, 200, base.text);
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("creates from files naming a model and a projector, told apart by architecture", async () => {
    const r = await create({
      model: "vision",
      // the projector first: the order of the files does not matter
      files: { "vision.gguf": digests["vision.gguf"], "tiny.gguf": digests["tiny.gguf"] },
      template: TEMPLATE,
    });
    assert.equal(r.status, 200, r.text);
    const manifest = JSON.parse(
      await readFile(
        join(server.modelsDir, "manifests/registry.ollama.ai/library/vision/latest"),
        "utf8",
      ),
    ) as { layers: Array<{ mediaType: string; digest: string }> };
    assert.deepEqual(
      manifest.layers.slice(0, 2).map((l) => [l.mediaType, l.digest]),
      [
        ["application/vnd.ollama.image.model", digests["tiny.gguf"]],
        [PROJECTOR_MEDIA, digests["vision.gguf"]],
      ],
    );
  });

  it("shows vision in capabilities, projector_info, clip among the families, two FROM lines", async () => {
    const s = await show("vision");
    assert.deepEqual(s.capabilities, ["completion", "tools", "vision"]);
    const info = s.projector_info as Json;
    assert.equal(info["general.architecture"], "clip");
    assert.equal(info["general.name"], "test projector");
    assert.equal(info["clip.has_vision_encoder"], true);
    assert.equal(info["clip.vision.projection_dim"], 64);
    assert.equal(info["general.parameter_count"], 16);
    assert.deepEqual((s.details as Json).families, ["llama", "clip"]);
    const froms = String(s.modelfile).match(/^FROM .*$/gm) ?? [];
    assert.equal(froms.length, 2);
    assert.ok(froms[1]?.endsWith(digests["vision.gguf"]?.replace(":", "-") ?? "?"));
    assert.equal((await show("base")).projector_info, undefined);
    const viaClient = await new Ollama({ host: url }).show({ model: "vision" });
    assert.ok(viaClient.capabilities.includes("vision"));
  });

  it("adds a projector to a model named in from; audio encoders give audio", async () => {
    const audio = await create({
      model: "listener",
      from: "base",
      files: { "audio.gguf": digests["audio.gguf"] },
      template: TEMPLATE,
    });
    assert.equal(audio.status, 200, audio.text);
    assert.deepEqual((await show("listener")).capabilities, ["completion", "tools", "audio"]);
    const both = await create({
      model: "av",
      from: "base",
      files: { "av.gguf": digests["av.gguf"] },
      template: TEMPLATE,
    });
    assert.equal(both.status, 200, both.text);
    assert.deepEqual((await show("av")).capabilities, ["completion", "tools", "vision", "audio"]);
    // FROM a model with a projector keeps it
    const child = await create({ model: "child", from: "vision", system: "be brief" });
    assert.equal(child.status, 200, child.text);
    assert.ok((await show("child")).projector_info);
  });

  it("refuses bad projector files with 400 naming the file", async () => {
    const cases: Array<[Json, RegExp]> = [
      [
        { "tiny.gguf": digests["tiny.gguf"], "mmproj.gguf": digests["notes.txt"] },
        /^invalid file "mmproj\.gguf": supplied file was not in GGUF format/,
      ],
      [
        { "tiny.gguf": digests["tiny.gguf"], "none.gguf": digests["none.gguf"] },
        /^invalid projector "none\.gguf": it has neither a vision nor an audio encoder/,
      ],
      [
        {
          "tiny.gguf": digests["tiny.gguf"],
          "vision.gguf": digests["vision.gguf"],
          "audio.gguf": digests["audio.gguf"],
        },
        /^files name more than one projector GGUF \(a model takes one\): "vision\.gguf", "audio\.gguf"$/,
      ],
      [
        { "vision.gguf": digests["vision.gguf"] },
        /^files name no model GGUF, only the projector "vision\.gguf"/,
      ],
    ];
    for (const [files, re] of cases) {
      const r = await create({ model: "broken", files });
      assert.equal(r.status, 400, r.text);
      assert.match(errorOf(r), re);
    }
    assert.equal((await postJson(`${url}/api/show`, { model: "broken" })).status, 404);
  });

  it("the CLI creates from a Modelfile with two FROMs and shows the Projector section", async () => {
    const file = join(dir, "Modelfile");
    await writeFile(file, `FROM ./tiny.gguf\nFROM ./vision.gguf\nTEMPLATE """${TEMPLATE}"""\n`);
    const made = await cli(["create", "cli-vision", "-f", file]);
    assert.equal(made.code, 0, made.errors);
    assert.deepEqual((await show("cli-vision")).capabilities, ["completion", "tools", "vision"]);
    const shown = await cli(["show", "cli-vision"]);
    assert.equal(shown.code, 0, shown.errors);
    assert.match(
      shown.out,
      /\n {2}Projector\n {4}architecture {8}clip\n {4}parameters {10}16\n {4}embedding length {4}16\n {4}dimensions {10}64\n\n/,
    );
    assert.match(shown.out, /Capabilities\n {4}completion\n {4}tools\n {4}vision\n/);
    assert.doesNotMatch((await cli(["show", "base"])).out, /Projector/);
    await writeFile(file, "FROM ./tiny.gguf\nFROM ./notes.txt\n");
    const bad = await cli(["create", "cli-bad", "-f", file]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.errors, /invalid file "notes\.txt": supplied file was not in GGUF format/);
  });

  it("chat: images decoded, tagged [img-N] across messages, the projector in the load spec", async () => {
    // Each image counts 768 tokens toward the window (as in Ollama): num_ctx leaves room.
    const r = await postJson(`${url}/api/chat`, {
      model: "vision",
      stream: false,
      options: { num_ctx: 8192 },
      messages: [
        { role: "user", content: "what are these?", images: [b64(PNG), b64(JPEG)] },
        { role: "assistant", content: "two pictures" },
        { role: "user", content: "and [img] here?", images: [b64(WEBP)] },
      ],
    });
    assert.equal(r.status, 200, r.text);
    // Recording runtime: the tags' exact places in the rendered prompt reach only the runtime.
    assert.equal(
      runtime.last.prompt,
      "<user>[img-0][img-1]what are these?<assistant>two pictures<user>and [img-2] here?<assistant>",
    );
    assert.deepEqual(
      runtime.last.media?.map((m) => Buffer.from(m)),
      [PNG, JPEG, WEBP],
    );
    const spec = runtime.loads.find((s) => s.projectorPath !== undefined);
    assert.ok(spec?.projectorPath?.endsWith(digests["vision.gguf"]?.replace(":", "-") ?? "?"));
  });

  it("generate: [img-N] user turns before the prompt, media in order", async () => {
    const r = await postJson(`${url}/api/generate`, {
      model: "av",
      prompt: "describe",
      images: [b64(JPEG), b64(WAV)],
      stream: false,
    });
    assert.equal(r.status, 200, r.text);
    // Recording runtime: the image turns' exact text reaches only the runtime.
    assert.equal(runtime.last.prompt, "<user>[img-0]\n\n[img-1]\n\ndescribe<assistant>");
    assert.deepEqual(
      runtime.last.media?.map((m) => Buffer.from(m)),
      [JPEG, WAV],
    );
    // a text-only request carries no media
    await postJson(`${url}/api/generate`, { model: "av", prompt: "plain", stream: false });
    assert.equal(runtime.last.media, undefined);
  });

  it("answers 400 naming the problem: base64, format, encoder, projector, tags", async () => {
    const chat = (model: string, images: string[], content = "x") =>
      postJson(`${url}/api/chat`, {
        model,
        stream: false,
        messages: [
          { role: "user", content: "hello" },
          { role: "user", content, images },
        ],
      });
    const generate = (model: string, images: string[], prompt = "x") =>
      postJson(`${url}/api/generate`, { model, prompt, images, stream: false });
    const cases: Array<[Promise<{ status: number; body: unknown }>, RegExp]> = [
      [
        chat("vision", ["aGV*"]),
        /^messages\[1\]\.images\[0\] is not valid base64: illegal base64 data at input byte 3$/,
      ],
      [
        generate("vision", [b64(PNG), "%%%"]),
        /^images\[1\] is not valid base64: illegal base64 data at input byte 0$/,
      ],
      [
        generate("vision", [`data:image/png;base64,${b64(PNG)}`]),
        /^images\[0\] is a data URL; send the base64 data alone/,
      ],
      [
        chat("vision", [b64(PNG), b64(Buffer.from("GIF89a........"))]),
        /^messages\[1\]\.images\[1\] is neither a PNG, JPEG or WebP image nor WAV or MP3 audio \(first bytes 47 49 46 38 39 61/,
      ],
      [chat("vision", [b64(MP3_FRAME)]), /^vision:latest does not support audio$/],
      [generate("listener", [b64(PNG)]), /^listener:latest does not support vision$/],
      [chat("base", [b64(PNG)]), /^base:latest does not support vision$/],
      [generate("base", [b64(WAV)]), /^base:latest does not support vision$/],
      [
        chat("vision", [b64(PNG)], "compare with [img-1]"),
        /^invalid image index: 1 \(the prompt tags \[img-1\] but the request carries 1 image\)$/,
      ],
      [generate("vision", [], "raw [img-0]"), /^invalid image index: 0/],
    ];
    for (const [p, re] of cases) {
      const r = await p;
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(errorOf(r), re);
    }
  });

  it("OpenAI: image_url data URLs and input_audio parts become media; http URLs are 400", async () => {
    const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused" });
    const r = await openai.chat.completions.create({
      model: "av",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is in both?" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${b64(PNG)}` } },
            { type: "input_audio", input_audio: { data: b64(WAV), format: "wav" } },
          ],
        },
      ],
    });
    assert.equal(r.choices[0]?.message.content, "ok");
    // Recording runtime: the parts' exact join, an image and audio in one message (no generated
    // projector takes both).
    assert.equal(runtime.last.prompt, "<user>what is in both?\n\n[img-0]\n\n[img-1]<assistant>");
    assert.deepEqual(
      runtime.last.media?.map((m) => Buffer.from(m)),
      [PNG, WAV],
    );
    await assert.rejects(
      openai.chat.completions.create({
        model: "av",
        messages: [
          {
            role: "user",
            content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }],
          },
        ],
      }),
      (e: { status?: number; error?: { type?: string; message?: string } }) => {
        assert.equal(e.status, 400);
        assert.equal(e.error?.type, "invalid_request_error");
        assert.match(e.error?.message ?? "", /^image URLs are not currently supported/);
        return true;
      },
    );
    const text = await postJson(`${url}/v1/chat/completions`, {
      model: "base",
      messages: [
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${b64(PNG)}` } }],
        },
      ],
    });
    assert.equal(text.status, 400);
    assert.match(
      String(((text.body as Json).error as Json).message),
      /^base:latest does not support vision$/,
    );
  });

  it("the scheduler loads a model once per projector and counts the projector's bytes", async () => {
    // Recording runtime: the memory estimate and projector path are seen only in the LoadSpec.
    const specs = (p: string | undefined) => runtime.loads.filter((s) => s.projectorPath === p);
    for (const model of ["base", "vision"]) {
      const plain = await postJson(`${url}/api/generate`, { model, prompt: "x", stream: false });
      assert.equal(plain.status, 200, plain.text);
    }
    const base = specs(undefined).at(-1);
    const vision = runtime.loads.at(-1);
    assert.equal(vision?.contextSize, base?.contextSize);
    assert.ok(base && vision);
    assert.equal(base.modelPath, vision.modelPath);
    const projectorSize = (await readFile(join(dir, "vision.gguf"))).length;
    assert.equal((vision.memoryBytes ?? 0) - (base.memoryBytes ?? 0), projectorSize);
    // models sharing the model blob but not the projector were each loaded with their own
    const paths = new Set(runtime.loads.map((s) => s.projectorPath));
    assert.ok(paths.size >= 3, [...paths].join(", "));
  });

  it("push and pull carry the projector layer; a pulled projector that is no clip GGUF is refused", async () => {
    const registry = await new TestRegistry().start();
    const other = await startTestServer({}, { ensureDemo: false });
    try {
      const host = new URL(registry.url).host;
      const target = `${host}/someone/vision:v1`;
      const cp = await postJson(`${url}/api/copy`, { source: "vision", destination: target });
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
      const pulled = (await postJson(`${other.url}/api/show`, { model: target })).body as Json;
      assert.deepEqual(pulled.capabilities, ["completion", "tools", "vision"]);
      assert.equal((pulled.projector_info as Json)["clip.vision.projection_dim"], 64);
      // a manifest whose projector layer is a llama model
      const model = await readFile(join(dir, "tiny.gguf"));
      const config = Buffer.from(JSON.stringify({ model_format: "gguf", model_family: "llama" }));
      const layer = (mediaType: string, b: Buffer) => ({
        mediaType,
        digest: digestOf(b),
        size: b.length,
      });
      const projector = Buffer.concat([model, Buffer.from("x")]);
      const manifest = {
        schemaVersion: 2,
        mediaType: "application/vnd.docker.distribution.manifest.v2+json",
        config: layer("application/vnd.docker.container.image.v1+json", config),
        layers: [
          layer("application/vnd.ollama.image.model", model),
          layer(PROJECTOR_MEDIA, projector),
        ],
      };
      registry.publish("library/bad-projector:latest", Buffer.from(JSON.stringify(manifest)), [
        model,
        projector,
        config,
      ]);
      const bad = await postJson(`${other.url}/api/pull`, {
        model: `${host}/library/bad-projector`,
        insecure: true,
        stream: false,
      });
      assert.notEqual(bad.status, 200);
      assert.match(errorOf(bad), /general\.architecture is "llama", not "clip"/);
    } finally {
      await other.stop();
      await registry.stop();
    }
  });
});

describe("a request with images over the body limit", () => {
  it("answers 413 before the images are read", async () => {
    const server = await startTestServer({ LLMSRV_MAX_BODY_BYTES: "4096" }, { ensureDemo: false });
    try {
      const r = await postJson(`${server.url}/api/chat`, {
        model: "any",
        messages: [{ role: "user", content: "x", images: [b64(Buffer.alloc(8192, 1))] }],
      });
      assert.equal(r.status, 413);
      assert.match(String((r.body as Json).error), /request body too large/);
    } finally {
      await server.stop();
    }
  });
});
