import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createLimiter } from "../src/loader/limiter.js";

describe("concurrency limiter", () => {
  it("never runs more tasks at once than its limit and settles each with its own result", async () => {
    const limit = createLimiter(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        limit(async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5 + (i % 4) * 5));
          running--;
          return i * 10;
        }),
      ),
    );
    assert.equal(peak, 3);
    assert.deepEqual(
      results,
      Array.from({ length: 12 }, (_, i) => i * 10),
    );
  });

  it("frees the slot of a task that fails", async () => {
    const limit = createLimiter(1);
    await assert.rejects(
      limit(() => Promise.reject(new Error("boom"))),
      /boom/,
    );
    assert.equal(await limit(async () => "next"), "next");
  });

  it("refuses a limit below one", () => {
    assert.throws(() => createLimiter(0), RangeError);
  });
});
