// The multimodal runtime with the generated audio projector: clips counted per window, too-short clips refused.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import {
  DEMO_AUDIO_TOKENS_PER_WINDOW,
  writeDemoAudioProjector,
} from "../../demo/demo-audio-projector.js";
import { writeDemoModel } from "../../demo/demo-model.js";
import { LlmsrvError, messageOf } from "../../errors.js";
import type { CompletionRequest, SamplingOptions } from "../model-runner.js";
import { type MtmdLoadedModel, MtmdRuntime } from "./mtmd-runtime.js";
import { sineWav } from "./test-audio.js";
import { addonMissing, greedySampling } from "./test-support.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };

const GREEDY: SamplingOptions = greedySampling(4);

function request(prompt: string, media: Uint8Array[]): CompletionRequest {
  return { prompt, media, sampling: GREEDY };
}

describe("mtmd runtime with audio", { skip: skipUnlessProvided(addonMissing()) }, () => {
  let dir: string;
  let model: MtmdLoadedModel;
  const never = new AbortController().signal;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "mtmd-audio-test-"));
    const modelPath = join(dir, "model.gguf");
    const projectorPath = join(dir, "audio.gguf");
    await writeDemoModel(modelPath, TINY);
    await writeDemoAudioProjector(projectorPath, { outputLength: TINY.embeddingLength });
    model = (await new MtmdRuntime({ maxThreads: 2 }).load({
      modelPath,
      projectorPath,
      contextSize: 1024,
      sequences: 1,
      threads: 2,
      flashAttention: false,
      kvCacheType: "f16",
      gpuLayers: 0,
    })) as MtmdLoadedModel;
  });

  after(async () => {
    await model?.unload();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads audio, not vision", () => {
    assert.equal(model.info.audio, true);
    assert.equal(model.info.vision, false);
  });

  it("counts a second of audio as one 750-token window and answers", async () => {
    const r = await model.complete(0, request("Hear [img-0]", [sineWav()]), () => {}, never);
    // The rest are text: the prompt's and the <|audio_bos|>/<|audio_eos|> framing mtmd adds.
    assert.equal(r.promptEvalCount, 1 + r.promptTokens.length + DEMO_AUDIO_TOKENS_PER_WINDOW);
    assert.ok(r.evalCount > 0);
  });

  it("refuses a clip of one sample (llama.cpp would abort) and of none, naming the request's item", async () => {
    const one = sineWav({ seconds: 1 / 16000 });
    await assert.rejects(
      model.complete(0, request("[img-1] then [img-0]", [sineWav(), one]), () => {}, never),
      (e: unknown) => {
        assert.ok(e instanceof LlmsrvError, messageOf(e));
        assert.equal(e.code, "bad_request");
        assert.match(
          e.message,
          /^media 1 is audio of 1 sample\(s\) after decoding; at least 2 are needed$/,
        );
        return true;
      },
    );
    await assert.rejects(
      model.complete(0, request("[img-0]", [sineWav({ seconds: 0 })]), () => {}, never),
      (e: unknown) =>
        e instanceof LlmsrvError && e.code === "bad_request" && /^image 0 /.test(e.message),
    );
    // two samples are enough: padded to a window
    const two = await model.complete(
      0,
      request("Hear [img-0]", [sineWav({ seconds: 2 / 16000 })]),
      () => {},
      never,
    );
    assert.equal(two.promptEvalCount, 1 + two.promptTokens.length + DEMO_AUDIO_TOKENS_PER_WINDOW);
  });
});
