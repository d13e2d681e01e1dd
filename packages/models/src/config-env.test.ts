// Tests of the OLLAMA_* fallbacks: read only when the LLMSRV_* variable is unset, noted, named in errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientUrlFrom, loadConfig } from "./config.js";
import { logLevelFromOllamaDebug, OLLAMA_COUNTERPARTS } from "./config-env.js";
import { CONFIG_VARIABLES } from "./config-variables.js";

describe("OLLAMA_* fallbacks", () => {
  it("reads each OLLAMA_* variable when its LLMSRV_* one is unset, with one notice each", () => {
    const c = loadConfig({
      OLLAMA_HOST: "127.0.0.1:18434",
      OLLAMA_MODELS: "/tmp/ollama-models",
      OLLAMA_KEEP_ALIVE: "10m",
      OLLAMA_MAX_LOADED_MODELS: "2",
      OLLAMA_NUM_PARALLEL: "3",
      OLLAMA_MAX_QUEUE: "7",
      OLLAMA_CONTEXT_LENGTH: "4096",
      OLLAMA_FLASH_ATTENTION: "1",
      OLLAMA_KV_CACHE_TYPE: "q8_0",
      OLLAMA_ORIGINS: "chrome-extension://*",
      OLLAMA_NOPRUNE: "true",
      OLLAMA_DEBUG: "1",
    });
    assert.deepEqual(
      [c.host, c.port, c.modelsDir, c.keepAliveMs, c.maxLoadedModels, c.numParallel, c.maxQueue],
      ["127.0.0.1", 18434, "/tmp/ollama-models", 600_000, 2, 3, 7],
    );
    assert.deepEqual(
      [c.contextLength, c.flashAttention, c.kvCacheType, c.noPrune, c.logLevel],
      [4096, true, "q8_0", true, "debug"],
    );
    assert.ok(c.origins.includes("chrome-extension://*"));
    assert.equal(c.envNotices.length, Object.keys(OLLAMA_COUNTERPARTS).length);
    assert.ok(c.envNotices.includes("using OLLAMA_HOST=127.0.0.1:18434 (LLMSRV_HOST is unset)"));
    assert.ok(c.envNotices.includes("using OLLAMA_DEBUG=1 (LLMSRV_LOG_LEVEL is unset)"));
  });

  it("prefers the LLMSRV_* variable and says nothing then", () => {
    const c = loadConfig({ LLMSRV_HOST: "127.0.0.1:1", OLLAMA_HOST: "127.0.0.1:2" });
    assert.equal(c.port, 1);
    assert.deepEqual(c.envNotices, []);
    assert.deepEqual(loadConfig({}).envNotices, []);
  });

  it("treats Ollama's 0 (automatic) as llmsrv's default", () => {
    const c = loadConfig({
      OLLAMA_MAX_LOADED_MODELS: "0",
      OLLAMA_NUM_PARALLEL: "0",
      OLLAMA_CONTEXT_LENGTH: "0",
    });
    // Loaded models: undefined leaves the default to the backend (1 on the CPU, 3 on a GPU).
    assert.deepEqual([c.maxLoadedModels, c.numParallel, c.contextLength], [undefined, 1, 2048]);
  });

  it("reads OLLAMA_DEBUG's values as Ollama does", () => {
    assert.deepEqual(["1", "true", "2", "0", "false", "verbose"].map(logLevelFromOllamaDebug), [
      "debug",
      "debug",
      "trace",
      "info",
      "info",
      undefined,
    ]);
    assert.equal(loadConfig({ OLLAMA_DEBUG: "2" }).logLevel, "trace");
    assert.equal(loadConfig({ OLLAMA_DEBUG: "2", LLMSRV_LOG_LEVEL: "warn" }).logLevel, "warn");
  });

  it("names the OLLAMA_* variable that was read in every error", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ OLLAMA_HOST: "a:b:c" }, /^OLLAMA_HOST: expected .*got "a:b:c"/],
      [{ OLLAMA_HOST: "127.0.0.1:99999" }, /^OLLAMA_HOST: /],
      [{ OLLAMA_KEEP_ALIVE: "forever" }, /^OLLAMA_KEEP_ALIVE: expected a duration/],
      [{ OLLAMA_NUM_PARALLEL: "-2" }, /^OLLAMA_NUM_PARALLEL: expected an integer >= 1/],
      [{ OLLAMA_MAX_QUEUE: "lots" }, /^OLLAMA_MAX_QUEUE: /],
      [{ OLLAMA_KV_CACHE_TYPE: "q2" }, /^OLLAMA_KV_CACHE_TYPE: expected f16/],
      [
        { OLLAMA_KV_CACHE_TYPE: "q4_0" },
        /^OLLAMA_KV_CACHE_TYPE: q4_0 needs LLMSRV_FLASH_ATTENTION=1/,
      ],
      [{ OLLAMA_NOPRUNE: "maybe" }, /^OLLAMA_NOPRUNE: expected 1\/0/],
      [{ OLLAMA_ORIGINS: "a*b*c" }, /^OLLAMA_ORIGINS: /],
      [{ OLLAMA_DEBUG: "verbose" }, /^OLLAMA_DEBUG: expected 1\/true/],
      [{ OLLAMA_CONTEXT_LENGTH: "999999999" }, /^OLLAMA_CONTEXT_LENGTH: 999999999 exceeds/],
    ];
    for (const [env, pattern] of cases) {
      assert.throws(
        () => loadConfig(env),
        (e: { problems?: readonly string[] }) => e.problems?.some((p) => pattern.test(p)) === true,
        JSON.stringify(env),
      );
    }
    // The LLMSRV_* name when that one was read.
    assert.throws(() => loadConfig({ LLMSRV_KEEP_ALIVE: "forever" }), /LLMSRV_KEEP_ALIVE: /);
  });

  it("gives the CLI the same address: LLMSRV_HOST, else OLLAMA_HOST, else the default", () => {
    assert.equal(clientUrlFrom({}), "http://127.0.0.1:11434");
    assert.equal(clientUrlFrom({ OLLAMA_HOST: "127.0.0.1:18434" }), "http://127.0.0.1:18434");
    assert.equal(clientUrlFrom({ OLLAMA_HOST: "0.0.0.0" }), "http://127.0.0.1:11434");
    assert.equal(
      clientUrlFrom({ LLMSRV_HOST: ":5", OLLAMA_HOST: "https://x.example/p" }),
      "http://127.0.0.1:5",
    );
    assert.equal(clientUrlFrom({ OLLAMA_HOST: "https://x.example/p" }), "https://x.example:443/p");
    assert.throws(() => clientUrlFrom({ OLLAMA_HOST: "h:99999" }), /OLLAMA_HOST: expected/);
  });

  it("documents the counterpart of each variable that has one", () => {
    for (const [name, ollama] of Object.entries(OLLAMA_COUNTERPARTS))
      assert.equal(CONFIG_VARIABLES.find((v) => v.name === name)?.ollama, ollama, name);
  });
});
