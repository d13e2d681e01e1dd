// The context's call queue: one call at a time, in order, a failure not blocking the next.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ContextTurns } from "./context-turns.js";

describe("context turns", () => {
  it("runs calls one at a time in the order asked, past a failed one", async () => {
    const turns = new ContextTurns();
    const log: string[] = [];
    let running = 0;
    const call =
      (name: string, fail = false) =>
      async () => {
        running++;
        assert.equal(running, 1, `${name} overlapped another call`);
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
    const results = await Promise.allSettled([
      turns.run(call("a")),
      turns.run(call("b", true)),
      turns.run(call("c")),
    ]);
    assert.deepEqual(log, ["start a", "end a", "start b", "end b", "start c", "end c"]);
    assert.deepEqual(
      results.map((r) => (r.status === "fulfilled" ? r.value : String(r.reason))),
      ["a", "Error: b failed", "c"],
    );
  });
});
