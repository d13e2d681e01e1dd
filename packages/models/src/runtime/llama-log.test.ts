// Tests of llama.cpp's log lines: tagged by the runner, read back with their level.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamaLogLine, parseRunnerLine } from "./llama-log.js";

describe("llama.cpp log lines", () => {
  it("round-trips node-llama-cpp's levels onto the server's", () => {
    const cases: [string, string][] = [
      ["fatal", "fatal"],
      ["error", "error"],
      ["warn", "warn"],
      ["info", "info"],
      ["log", "info"],
      ["debug", "debug"],
    ];
    for (const [llama, ours] of cases) {
      const line = llamaLogLine(llama, "load_tensors: CPU model buffer size = 1.0 MiB\n");
      assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"));
      assert.deepEqual(parseRunnerLine(line.trimEnd()), {
        level: ours,
        message: "load_tensors: CPU model buffer size = 1.0 MiB",
      });
    }
  });

  it("keeps a multi-line message on one line", () => {
    assert.equal(llamaLogLine("warn", "a\nb"), "[node-llama-cpp:warn] a b\n");
  });

  it("reads node-llama-cpp's untagged lines as warnings and any other line as an error", () => {
    assert.deepEqual(parseRunnerLine("[node-llama-cpp] something odd"), {
      level: "warn",
      message: "something odd",
    });
    assert.deepEqual(parseRunnerLine("GGML_ASSERT(n > 0) failed"), {
      level: "error",
      message: "GGML_ASSERT(n > 0) failed",
    });
    assert.equal(parseRunnerLine("[node-llama-cpp:weird] x").level, "warn");
  });
});
