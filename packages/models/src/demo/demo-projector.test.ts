// The demo projector's writer: deterministic bytes, clip metadata sized to the text model.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { digestOfFile } from "../store/blob-store.js";
import { DEMO_PROJECTOR_SHAPE, demoImageTokens, writeDemoProjector } from "./demo-projector.js";

describe("demo projector writer", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "demo-projector-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes a deterministic clip GGUF whose projection width is the text model's", async () => {
    const [a, b, c] = ["a", "b", "c"].map((n) => join(dir, `${n}.gguf`)) as [
      string,
      string,
      string,
    ];
    await writeDemoProjector(a, { outputLength: 64 });
    await writeDemoProjector(b, { outputLength: 64 });
    await writeDemoProjector(c, { outputLength: 64, seed: 2 });
    assert.equal(await digestOfFile(a), await digestOfFile(b));
    assert.notEqual(await digestOfFile(a), await digestOfFile(c));
    const info = readGgufInfo(a);
    assert.equal(info.metadata.get("general.architecture"), "clip");
    assert.equal(info.metadata.get("clip.projector_type"), "mlp");
    assert.equal(info.metadata.get("clip.vision.projection_dim"), 64);
    assert.equal(demoImageTokens(DEMO_PROJECTOR_SHAPE), 16);
  });

  it("refuses a patch size that does not divide the image size", async () => {
    await assert.rejects(
      writeDemoProjector(join(dir, "bad.gguf"), { outputLength: 64, patchSize: 7 }),
      /patch size must divide the image size/,
    );
  });
});
