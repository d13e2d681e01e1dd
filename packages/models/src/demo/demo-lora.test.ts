// Tests of the demo LoRA writer and of the adapter checks against llama.cpp's rules.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import {
  type GgufTensorSpec,
  type GgufTypedValue,
  gguf,
  writeGgufFile,
} from "../gguf/gguf-writer.js";
import { checkLoraFits, checkLoraHeader } from "../gguf/lora-check.js";
import { loraMetadata, loraTensors } from "../gguf/lora-writer.js";
import { demoLoraPairs, writeDemoLora } from "./demo-lora.js";
import { writeDemoModel } from "./demo-model.js";

const SHAPE = {
  embeddingLength: 64,
  headCount: 4,
  headCountKv: 2,
  feedForwardLength: 128,
  vocabulary: "bytes" as const,
};

describe("LoRA adapter GGUFs", () => {
  let dir: string;
  let modelPath: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-lora-unit-"));
    modelPath = join(dir, "model.gguf");
    await writeDemoModel(modelPath, SHAPE);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Writes an adapter with these metadata and tensors, returns its header as read back. */
  async function adapterWith(
    metadata: Array<[string, GgufTypedValue]>,
    tensors = loraTensors(demoLoraPairs({ shape: SHAPE, targets: ["attn_q"] })),
  ) {
    const path = join(dir, `a-${Math.random().toString(36).slice(2)}.gguf`);
    await writeGgufFile(path, metadata, tensors);
    return readGgufInfo(path);
  }

  it("writes llama.cpp's layout: adapter metadata and [nIn, rank] / [rank, nOut] factors", async () => {
    const path = join(dir, "lora.gguf");
    await writeDemoLora(path, { shape: SHAPE, rank: 2, alpha: 3, seed: 5 });
    const info = readGgufInfo(path);
    assert.equal(info.metadata.get("general.type"), "adapter");
    assert.equal(info.metadata.get("adapter.type"), "lora");
    assert.equal(info.metadata.get("general.architecture"), "llama");
    assert.equal(info.metadata.get("adapter.lora.alpha"), 3);
    const dims = Object.fromEntries(info.tensors.map((t) => [t.name, t.dims]));
    assert.deepEqual(dims["blk.0.attn_k.weight.lora_a"], [64, 2]);
    assert.deepEqual(dims["blk.0.attn_k.weight.lora_b"], [2, 32]);
    assert.deepEqual(dims["blk.0.ffn_down.weight.lora_a"], [128, 2]);
    assert.deepEqual(dims["blk.0.ffn_down.weight.lora_b"], [2, 64]);
    assert.equal(info.tensors.length, 14);
    checkLoraFits(info, readGgufInfo(modelPath), "lora.gguf");
    // seeded: the same options give the same values
    const again = demoLoraPairs({ shape: SHAPE, rank: 2, seed: 5 });
    assert.deepEqual(again, demoLoraPairs({ shape: SHAPE, rank: 2, seed: 5 }));
    assert.notDeepEqual(again[0]?.a, demoLoraPairs({ shape: SHAPE, rank: 2, seed: 6 })[0]?.a);
  });

  it("refuses headers llama.cpp would refuse or abort on", async () => {
    const base = loraMetadata({ architecture: "llama", alpha: 8 });
    const without = (key: string) => base.filter(([k]) => k !== key);
    const cases: Array<[Array<[string, GgufTypedValue]>, RegExp]> = [
      [without("general.type"), /general\.type is missing, not "adapter"/],
      [
        [...without("adapter.type"), ["adapter.type", gguf.str("ia3")]],
        /adapter\.type is "ia3", not "lora"/,
      ],
      [
        [...without("adapter.lora.alpha"), ["adapter.lora.alpha", gguf.u32(8)]],
        /adapter\.lora\.alpha must be a float32/,
      ],
    ];
    for (const [metadata, error] of cases) {
      const info = await adapterWith(metadata);
      assert.throws(() => checkLoraHeader(info, '"x.gguf"'), error);
      assert.throws(
        () => checkLoraFits(info, readGgufInfo(modelPath), '"x.gguf"'),
        /^LlmsrvError: invalid adapter "x\.gguf": /,
      );
    }
  });

  it("refuses tensors that do not pair up or do not fit the model", async () => {
    const metadata = loraMetadata({ architecture: "llama", alpha: 8 });
    const [a, b] = loraTensors(demoLoraPairs({ shape: SHAPE, targets: ["attn_q"] }));
    assert.ok(a && b);
    const model = readGgufInfo(modelPath);
    const f32 = (n: number) => () => Buffer.alloc(n * 4);
    const cases: Array<[GgufTensorSpec[], RegExp]> = [
      [
        [a, b, { ...a, name: "blk.0.attn_q.weight.lora_c" }],
        /tensor blk\.0\.attn_q\.weight\.lora_c is neither a \.lora_a nor a \.lora_b tensor/,
      ],
      [[a], /tensor blk\.0\.attn_q\.weight\.lora_a has no \.lora_b partner/],
      [[a, { ...b, dims: [2, 64], data: f32(2 * 64) }], /have different ranks \(4 and 2\)/],
      [
        [a, { ...b, dims: [4, 64, 1, 2], data: f32(4 * 64 * 2) }],
        /tensor blk\.0\.attn_q\.weight\.lora_b has 4 dimensions, not 2/,
      ],
      [
        [
          { ...a, name: "token_embd.weight.lora_a" },
          { ...b, name: "token_embd.weight.lora_b" },
        ],
        /do not fit: the model's token_embd\.weight is \[64, 260\]/,
      ],
    ];
    for (const [tensors, error] of cases) {
      const info = await adapterWith(metadata, tensors);
      assert.throws(() => checkLoraFits(info, model, "x"), error);
    }
    // token_embd's factors are flipped, as llama.cpp reads them: [rank, n_vocab], [rank, n_embd]
    const embd = await adapterWith(metadata, [
      { ...a, name: "token_embd.weight.lora_a", dims: [4, 260], data: f32(4 * 260) },
      { ...b, name: "token_embd.weight.lora_b", dims: [4, 64], data: f32(4 * 64) },
    ]);
    checkLoraFits(embd, model, "x");
  });
});
