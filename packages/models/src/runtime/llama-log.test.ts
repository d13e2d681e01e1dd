// Tests of llama.cpp's log lines: tagged by the runner, read back with their level.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isBacktraceFrame, llamaLogLine, parseRunnerLine } from "./llama-log.js";

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

  it("tells ggml's backtrace frames from the lines that give a reason", () => {
    for (const frame of [
      "/work/x/libggml-base.so(ggml_abort+0x152)[0x7f41ec34cf42]",
      "/work/x/libggml-base.so(+0x1c8eb)[0x7f41ec34c8eb]",
      "/lib/x86_64-linux-gnu/libc.so.6(+0x129ecc)[0x7fcdc1329ecc]",
      "node(_ZZN4node14ThreadPoolWork12ScheduleWorkEvENUlP9uv_work_sE_4_FUNES2_+0x59)[0xc71349]",
      "node[0x18a7b40]",
      "#3  0x00007f41ec34cf42 in ggml_abort () from libggml-base.so",
    ]) {
      assert.equal(isBacktraceFrame(frame), true, frame);
    }
    for (const reason of [
      "/src/llama-model.cpp:120: GGML_ASSERT(n_layer > 0) failed",
      "CUDA error: the provided PTX was compiled with an unsupported toolchain.",
      "llama_model_load: error loading model: wrong number of tensors",
    ]) {
      assert.equal(isBacktraceFrame(reason), false, reason);
    }
  });
});
