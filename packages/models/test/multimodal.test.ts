// Images and audio end to end: a real llmsrv with demo-vision and demo-audio, the native mtmd runtime, the ollama and openai clients.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { type ChatResponse, type Message, Ollama } from "ollama";
import OpenAI from "openai";
import sharp from "sharp";
import { DEMO_AUDIO_TOKENS_PER_WINDOW } from "../src/demo/demo-audio-projector.js";
import { DEMO_PROJECTOR_SHAPE, demoImageTokens } from "../src/demo/demo-projector.js";
import { sineWav } from "../src/runtime/mtmd/test-audio.js";
import { encodeBlockJpeg, encodePng, rgbImage } from "../src/runtime/mtmd/test-images.js";
import { addonMissing } from "../src/runtime/mtmd/test-support.js";
import { loadedModels, startTestServer, type TestServer } from "./harness.js";

type Json = Record<string, unknown>;

/** Tokens one 32 px image becomes with the generated vision projector. */
const IMAGE_TOKENS = demoImageTokens(DEMO_PROJECTOR_SHAPE);
const PNG = encodePng(rgbImage(32, 32, (x, y) => [x * 8, y * 8, 128]));
const JPEG = encodeBlockJpeg(rgbImage(48, 40, (x, y) => [255 - x * 5, 40, y * 6]));
/** A WebP (which mtmd itself reads only through ffmpeg) of the PNG's pixels, made by sharp. */
const WEBP = new Uint8Array(await sharp(PNG).webp({ lossless: true }).toBuffer());
const WAV = sineWav({ seconds: 1 });
/** Compiled tests run from dist/test; the fixture stays in the sources' test/fixtures. */
const MP3 = readFileSync(
  fileURLToPath(new URL("../../test/fixtures/tone-1s.mp3", import.meta.url)),
);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const dataUrl = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${b64(bytes)}`;

/** Greedy and short: the demo's text is noise, only that it is generated matters. */
const OPTIONS = { temperature: 0, seed: 1, num_predict: 4 };

/** Asserts a client call fails with `status` and an error matching `re`. */
async function rejectsWith(p: Promise<unknown>, status: number, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: { status_code?: number; error?: string }) => {
    assert.equal(e.status_code, status, e.error);
    assert.match(e.error ?? "", re);
    return true;
  });
}

/** A finished, non-empty answer. */
function assertAnswered(r: ChatResponse): void {
  assert.equal(r.done, true);
  assert.ok(r.eval_count > 0, "tokens generated");
  assert.ok(r.message.content.length > 0, "an answer");
}

describe("images and audio through llmsrv and the native runtime", {
  skip: skipUnlessProvided(addonMissing()),
  timeout: 600_000,
}, () => {
  let server: TestServer;
  let ollama: Ollama;
  let openai: OpenAI;

  before(async () => {
    // Ollama's chat window counts 768 tokens per image: 2048 leaves room for two.
    server = await startTestServer({ LLMSRV_CONTEXT_LENGTH: "2048" });
    ollama = new Ollama({ host: server.url });
    openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" });
  });
  after(() => server?.stop());

  const chat = (model: string, messages: Message[]) =>
    ollama.chat({ model, messages, stream: false, options: OPTIONS });
  /** A raw generate's prompt_eval_count: no template, the beginning token and the text. */
  const rawCount = async (model: string, prompt: string, images: Uint8Array[] = []) => {
    const r = await ollama.generate({ model, prompt, images, raw: true, options: OPTIONS });
    assert.ok(r.eval_count > 0);
    return r.prompt_eval_count;
  };

  it("shows vision for demo-vision and audio for demo-audio", async () => {
    const vision = await ollama.show({ model: "demo-vision" });
    assert.ok(vision.capabilities.includes("vision"), vision.capabilities.join());
    assert.ok(!vision.capabilities.includes("audio"));
    const audio = await ollama.show({ model: "demo-audio" });
    assert.ok(audio.capabilities.includes("audio"), audio.capabilities.join());
    assert.ok(!audio.capabilities.includes("vision"));
    assert.ok(!(await ollama.show({ model: "demo" })).capabilities.includes("vision"));
  });

  /**
   * Tokens the text after an image or audio clip gains: mtmd tokenizes it alone, and the
   * demo's SentencePiece vocabulary puts a space before a text's start. The tests tag media
   * at the end of a message ([img]), so that text is the template's `<|im_end|>` (plain text
   * to the demo vocabulary) and the message's own words are tokenized as without media.
   */
  async function textRestart(model: string): Promise<number> {
    const alone = (await rawCount(model, "<|im_end|>")) - 1;
    const after =
      (await rawCount(model, "Describe this.<|im_end|>")) -
      (await rawCount(model, "Describe this."));
    return alone - after;
  }

  it("chat: a PNG, a JPEG and a WebP each add their 16 tokens and are answered", async () => {
    const restart = await textRestart("demo-vision");
    const text = await chat("demo-vision", [{ role: "user", content: "Describe this." }]);
    assertAnswered(text);
    for (const image of [PNG, JPEG, WEBP]) {
      const r = await chat("demo-vision", [
        { role: "user", content: "Describe this.[img]", images: [image] },
      ]);
      assertAnswered(r);
      assert.equal(r.prompt_eval_count, text.prompt_eval_count + IMAGE_TOKENS + restart);
    }
  });

  it("chat: two images in two messages are both counted", async () => {
    const conversation = (images: boolean): Message[] => [
      { role: "user", content: `First.${images ? "[img]" : ""}`, images: images ? [PNG] : [] },
      { role: "assistant", content: "Noted." },
      { role: "user", content: `Second.${images ? "[img]" : ""}`, images: images ? [JPEG] : [] },
    ];
    const restart = await textRestart("demo-vision");
    const text = await chat("demo-vision", conversation(false));
    const both = await chat("demo-vision", conversation(true));
    assertAnswered(both);
    assert.equal(both.prompt_eval_count, text.prompt_eval_count + 2 * (IMAGE_TOKENS + restart));
  });

  it("generate: 16 tokens per image in a raw prompt; each templated image adds the same", async () => {
    const plain = await rawCount("demo-vision", "Describe this.");
    // At the prompt's start the text is tokenized alone with or without the image.
    assert.equal(
      await rawCount("demo-vision", "[img-0]Describe this.", [PNG]),
      plain + IMAGE_TOKENS,
    );
    assert.equal(
      await rawCount("demo-vision", "[img-0][img-1]Describe this.", [PNG, JPEG]),
      plain + 2 * IMAGE_TOKENS,
    );
    // Templated, each image is a user turn of its own before the prompt's: its 16 tokens
    // and the turn's framing, the same for every image.
    const counts: number[] = [];
    for (const images of [[], [JPEG], [JPEG, PNG]]) {
      const r = await ollama.generate({
        model: "demo-vision",
        prompt: "Describe this.",
        images,
        options: OPTIONS,
      });
      assert.ok(r.eval_count > 0 && (r.response ?? "").length > 0);
      counts.push(r.prompt_eval_count);
    }
    const [none = 0, one = 0, two = 0] = counts;
    assert.ok(one - none > IMAGE_TOKENS, `${one} - ${none}`);
    assert.equal(two - one, one - none);
  });

  it("OpenAI: an image_url data URL adds 16 to usage.prompt_tokens and is answered", async () => {
    // The layer joins a message's parts with blank lines: text, then [img].
    const restart = await textRestart("demo-vision");
    const text = await openai.chat.completions.create({
      model: "demo-vision",
      temperature: 0,
      max_tokens: 4,
      messages: [{ role: "user", content: "Describe this.\n\n" }],
    });
    for (const [mime, image] of [
      ["image/png", PNG],
      ["image/jpeg", JPEG],
    ] as const) {
      const r = await openai.chat.completions.create({
        model: "demo-vision",
        temperature: 0,
        max_tokens: 4,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Describe this." },
              { type: "image_url", image_url: { url: dataUrl(mime, image) } },
            ],
          },
        ],
      });
      assert.ok((r.choices[0]?.message.content ?? "").length > 0);
      assert.equal(
        r.usage?.prompt_tokens,
        (text.usage?.prompt_tokens ?? 0) + IMAGE_TOKENS + restart,
      );
      assert.ok((r.usage?.completion_tokens ?? 0) > 0);
    }
  });

  it("streams a chat with an image: NDJSON chunks, then done with the counts", async () => {
    const messages = [{ role: "user", content: "Describe this.[img]", images: [b64(PNG)] }];
    const whole = await chat("demo-vision", [
      { role: "user", content: "Describe this.[img]", images: [PNG] },
    ]);
    const res = await fetch(`${server.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "demo-vision", messages, options: OPTIONS }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/x-ndjson/);
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Json);
    const last = lines.at(-1) as Json;
    const chunks = lines.slice(0, -1);
    assert.ok(chunks.length > 0);
    assert.ok(chunks.every((c) => c.done === false));
    assert.equal(chunks.map((c) => (c.message as Json).content).join(""), whole.message.content);
    assert.equal(last.done, true);
    assert.equal(last.prompt_eval_count, whole.prompt_eval_count);
    assert.equal(last.eval_count, whole.eval_count);
  });

  it("/api/ps lists demo-vision with its size after a vision request", async () => {
    const ps = (await loadedModels(server.url)) as Array<{ name: string; size?: number }>;
    const entry = ps.find((m) => m.name === "demo-vision:latest");
    assert.ok(entry, JSON.stringify(ps));
    assert.ok((entry.size ?? 0) > 0);
  });

  it("refuses undecodable bytes behind a PNG header with 400 naming the image, then serves", async () => {
    const corrupt = Buffer.concat([PNG.subarray(0, 33), Buffer.alloc(200, 0x5a)]);
    await rejectsWith(
      chat("demo-vision", [{ role: "user", content: "See.[img]", images: [PNG, corrupt] }]),
      400,
      /^image 1 \(233 bytes\) is not an image or audio clip this model can decode/,
    );
    assertAnswered(
      await chat("demo-vision", [{ role: "user", content: "See.[img]", images: [PNG] }]),
    );
  });

  it("answers 400 for audio to demo-vision and an image to the text-only demo", async () => {
    await rejectsWith(
      chat("demo-vision", [{ role: "user", content: "Hear.", images: [WAV] }]),
      400,
      /^demo-vision:latest does not support audio$/,
    );
    await rejectsWith(
      chat("demo", [{ role: "user", content: "See.", images: [PNG] }]),
      400,
      /^demo:latest does not support vision$/,
    );
    await rejectsWith(
      ollama.generate({ model: "demo", prompt: "See.", images: [PNG] }),
      400,
      /^demo:latest does not support vision$/,
    );
  });

  /**
   * Tokens an audio clip adds beside its embeddings: mtmd frames it with the texts
   * <|audio_bos|> and <|audio_eos|>, each tokenized alone (the demo vocabulary spells them),
   * and the text after it restarts (textRestart).
   */
  async function audioFraming(): Promise<number> {
    const bos = (await rawCount("demo-audio", "<|audio_bos|>")) - 1;
    const eos = (await rawCount("demo-audio", "<|audio_eos|>")) - 1;
    return bos + eos + (await textRestart("demo-audio"));
  }

  it("chat: a WAV and the MP3 fixture add 750 tokens and their framing, and are answered", async () => {
    const framing = await audioFraming();
    const text = await chat("demo-audio", [{ role: "user", content: "Listen." }]);
    for (const clip of [WAV, MP3]) {
      const r = await chat("demo-audio", [
        { role: "user", content: "Listen.[img]", images: [clip] },
      ]);
      assertAnswered(r);
      assert.equal(
        r.prompt_eval_count,
        text.prompt_eval_count + DEMO_AUDIO_TOKENS_PER_WINDOW + framing,
      );
    }
  });

  it("OpenAI: input_audio parts (wav, mp3) are counted and answered", async () => {
    const framing = await audioFraming();
    const text = await openai.chat.completions.create({
      model: "demo-audio",
      temperature: 0,
      max_tokens: 4,
      messages: [{ role: "user", content: "Listen.\n\n" }],
    });
    for (const [format, clip] of [
      ["wav", WAV],
      ["mp3", MP3],
    ] as const) {
      const r = await openai.chat.completions.create({
        model: "demo-audio",
        temperature: 0,
        max_tokens: 4,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Listen." },
              { type: "input_audio", input_audio: { data: b64(clip), format } },
            ],
          },
        ],
      });
      assert.ok((r.choices[0]?.message.content ?? "").length > 0);
      assert.equal(
        r.usage?.prompt_tokens,
        (text.usage?.prompt_tokens ?? 0) + DEMO_AUDIO_TOKENS_PER_WINDOW + framing,
      );
    }
  });

  it("answers 400 for an image to demo-audio and a WAV of one sample, then still serves", async () => {
    await rejectsWith(
      chat("demo-audio", [{ role: "user", content: "See.", images: [PNG] }]),
      400,
      /^demo-audio:latest does not support vision$/,
    );
    // llama.cpp asserts (aborting the runner) on one sample: the runtime refuses it first.
    const oneSample = sineWav({ seconds: 1 / 16000 });
    await rejectsWith(
      chat("demo-audio", [{ role: "user", content: "Hear.[img]", images: [oneSample] }]),
      400,
      /media 0 is audio of 1 sample\(s\) after decoding; at least 2 are needed/,
    );
    // (An abort would have answered 500 with the runner's exit instead.)
    assertAnswered(await chat("demo-audio", [{ role: "user", content: "Listen." }]));
    const ps = (await loadedModels(server.url)) as Array<{ name: string }>;
    assert.ok(ps.some((m) => m.name === "demo-audio:latest"));
  });
});
