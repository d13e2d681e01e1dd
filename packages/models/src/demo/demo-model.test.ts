// The demo model's writer: deterministic bytes per seed, and facts a listing reads back.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { digestOfFile } from "../store/blob-store.js";
import { factsFromGguf } from "../store/model-info.js";
import { writeDemoModel } from "./demo-model.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };

describe("demo model writer", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "demo-model-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes a deterministic llama model: same seed, same bytes; another seed, other bytes", async () => {
    const a = join(dir, "a.gguf");
    const b = join(dir, "b.gguf");
    const c = join(dir, "c.gguf");
    await writeDemoModel(a, { ...TINY, seed: 1 });
    await writeDemoModel(b, { ...TINY, seed: 1 });
    await writeDemoModel(c, { ...TINY, seed: 2 });
    assert.equal(await digestOfFile(a), await digestOfFile(b));
    assert.notEqual(await digestOfFile(a), await digestOfFile(c));
    const facts = factsFromGguf(readGgufInfo(a));
    assert.equal(facts.architecture, "llama");
    assert.equal(facts.embeddingLength, 64);
    assert.equal(facts.quantization, "Q8_0");
    assert.ok(facts.chatTemplate?.includes("add_generation_prompt"));
    assert.deepEqual(facts.capabilities, ["completion", "tools"]);
  });
});
