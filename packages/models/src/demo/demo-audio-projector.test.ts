// The generated audio projector: the keys and tensor shapes llama.cpp's qwen2a loader reads.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { GgmlTensorType } from "../gguf/gguf-format.js";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { digestOfFile } from "../store/blob-store.js";
import {
  DEMO_AUDIO_PROJECTOR_SHAPE,
  DEMO_AUDIO_TOKENS_PER_WINDOW,
  demoAudioTokenCount,
  writeDemoAudioProjector,
} from "./demo-audio-projector.js";
import { DEMO_MODEL_SHAPE } from "./demo-model.js";

const SMALL = { outputLength: 96, embeddingLength: 32, headCount: 2, feedForwardLength: 48 };

describe("demo audio projector writer", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "demo-audio-projector-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes the keys a qwen2a projector needs, sized to the text model", async () => {
    const path = join(dir, "keys.gguf");
    await writeDemoAudioProjector(path, { ...SMALL, blockCount: 1, melBins: 40 });
    const meta = readGgufInfo(path).metadata;
    assert.equal(meta.get("general.architecture"), "clip");
    assert.equal(meta.get("clip.projector_type"), "qwen2a");
    assert.equal(meta.get("clip.has_audio_encoder"), true);
    assert.equal(meta.get("clip.has_vision_encoder"), false);
    assert.equal(meta.get("clip.audio.projection_dim"), 96);
    assert.equal(meta.get("clip.audio.embedding_length"), 32);
    assert.equal(meta.get("clip.audio.feed_forward_length"), 48);
    assert.equal(meta.get("clip.audio.block_count"), 1);
    assert.equal(meta.get("clip.audio.attention.head_count"), 2);
    assert.equal(meta.get("clip.audio.num_mel_bins"), 40);
    const eps = meta.get("clip.audio.attention.layer_norm_epsilon");
    assert.ok(typeof eps === "number" && Math.abs(eps - 1e-5) < 1e-9);
  });

  it("writes every tensor with the shape and type the whisper graph reads", async () => {
    const path = join(dir, "tensors.gguf");
    await writeDemoAudioProjector(path, { ...SMALL, blockCount: 2, melBins: 80 });
    const info = readGgufInfo(path);
    const byName = new Map(info.tensors.map((t) => [t.name, t]));
    const expect = (name: string, dims: number[], type: GgmlTensorType) => {
      const t = byName.get(name);
      assert.ok(t, `missing tensor ${name}`);
      assert.deepEqual(t.dims, dims, name);
      assert.equal(t.type, type, name);
    };
    const { F16, F32 } = GgmlTensorType;
    expect("a.conv1d.1.weight", [3, 80, 32], F16);
    expect("a.conv1d.1.bias", [1, 32], F32);
    expect("a.conv1d.2.weight", [3, 32, 32], F16);
    expect("a.conv1d.2.bias", [1, 32], F32);
    expect("a.position_embd.weight", [32, 1500], F32);
    for (const b of [0, 1]) {
      expect(`a.blk.${b}.attn_q.weight`, [32, 32], F16);
      expect(`a.blk.${b}.attn_q.bias`, [32], F32);
      expect(`a.blk.${b}.attn_k.weight`, [32, 32], F16);
      expect(`a.blk.${b}.attn_v.bias`, [32], F32);
      expect(`a.blk.${b}.attn_out.weight`, [32, 32], F16);
      expect(`a.blk.${b}.ln1.bias`, [32], F32);
      expect(`a.blk.${b}.ln2.weight`, [32], F32);
      expect(`a.blk.${b}.ffn_up.weight`, [32, 48], F16);
      expect(`a.blk.${b}.ffn_down.weight`, [48, 32], F16);
      expect(`a.blk.${b}.ffn_down.bias`, [32], F32);
      // The graph asserts that the key has no bias.
      assert.equal(byName.has(`a.blk.${b}.attn_k.bias`), false);
    }
    assert.equal(byName.has("a.blk.2.ln1.weight"), false);
    expect("a.post_ln.weight", [32], F32);
    expect("mm.a.fc.weight", [32, 96], F16);
    expect("mm.a.fc.bias", [96], F32);
    assert.equal(info.tensors.length, 5 + 2 * 15 + 2 + 2);
  });

  it("is deterministic: same seed, same bytes; another seed, other bytes", async () => {
    const [a, b, c] = ["a", "b", "c"].map((n) => join(dir, `${n}.gguf`));
    await writeDemoAudioProjector(a, { ...SMALL, seed: 1 });
    await writeDemoAudioProjector(b, { ...SMALL, seed: 1 });
    await writeDemoAudioProjector(c, { ...SMALL, seed: 2 });
    assert.equal(await digestOfFile(a), await digestOfFile(b));
    assert.notEqual(await digestOfFile(a), await digestOfFile(c));
  });

  it("defaults to the demo model's embedding length", () => {
    assert.equal(DEMO_AUDIO_PROJECTOR_SHAPE.outputLength, DEMO_MODEL_SHAPE.embeddingLength);
  });

  it("refuses widths that do not divide into heads or are not positive", async () => {
    const path = join(dir, "bad.gguf");
    await assert.rejects(
      writeDemoAudioProjector(path, { embeddingLength: 30, headCount: 4 }),
      /must divide by the head count/,
    );
    await assert.rejects(
      writeDemoAudioProjector(path, { outputLength: 0 }),
      /must be positive integers/,
    );
  });

  it("counts 750 embeddings per started 30 s window, as mtmd does", () => {
    assert.equal(DEMO_AUDIO_TOKENS_PER_WINDOW, 750);
    assert.equal(demoAudioTokenCount(16000), 750); // 1 s
    assert.equal(demoAudioTokenCount(2), 750); // padded to 201 samples
    assert.equal(demoAudioTokenCount(479839), 750); // 29.99 s: still one window
    assert.equal(demoAudioTokenCount(479840), 1500); // a second, silent window starts
    assert.equal(demoAudioTokenCount(35 * 16000), 1500);
    assert.equal(demoAudioTokenCount(1), 0);
    assert.equal(demoAudioTokenCount(0), 0);
  });
});
