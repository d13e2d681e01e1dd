// Tests of `llmsrv ps`'s PROCESSOR column against Ollama's wording.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { processorLabel } from "./processor.js";

describe("ps PROCESSOR column", () => {
  it("says 100% CPU with nothing on the GPU", () => {
    assert.equal(processorLabel(1000, 0), "100% CPU");
  });
  it("says 100% GPU with everything on the GPU", () => {
    assert.equal(processorLabel(1000, 1000), "100% GPU");
  });
  it("gives rounded CPU/GPU shares for a split model", () => {
    assert.equal(processorLabel(1000, 520), "48%/52% CPU/GPU");
    assert.equal(processorLabel(1000, 3), "100%/0% CPU/GPU");
    assert.equal(processorLabel(3, 1), "67%/33% CPU/GPU");
  });
  it("says Unknown for sizes that do not add up", () => {
    assert.equal(processorLabel(1000, 2000), "Unknown");
    assert.equal(processorLabel(0, 5), "Unknown");
  });
});
