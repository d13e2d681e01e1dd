import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { processIo } from "./process-io.js";

describe("processIo", () => {
  it("hands out the process's own streams and environment", () => {
    const io = processIo();
    assert.equal(io.stdout, process.stdout);
    assert.equal(io.stderr, process.stderr);
    assert.equal(io.env, process.env);
    assert.equal(io.stdin, process.stdin);
  });

  it("listens for SIGINT/SIGTERM only once a command reads its signal", () => {
    const counts = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = counts();
    const io = processIo();
    assert.deepEqual(counts(), before, "no listener before the signal is read");
    const listenersBefore = process.listeners("SIGINT");
    const signal = io.signal;
    assert.equal(io.signal, signal, "one signal per io");
    assert.deepEqual(
      counts(),
      before.map((n) => n + 1),
    );
    const [added] = process.listeners("SIGINT").filter((l) => !listenersBefore.includes(l));
    (added as () => void)();
    assert.equal(signal.reason, "SIGINT");
    assert.deepEqual(counts(), before, "the first signal stops listening");
  });
});
