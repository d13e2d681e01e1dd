// Tests of loadConfig: defaults, every variable, and all bad values reported together.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadConfig, parseByteSize, physicalCoreCount } from "./config.js";
import { CONFIG_VARIABLES } from "./config-variables.js";
import { ConfigError } from "./errors.js";

describe("configuration", () => {
  it("applies the spec's defaults when nothing is set", () => {
    const c = loadConfig({});
    assert.deepEqual(
      [
        c.host,
        c.port,
        c.keepAliveMs,
        c.maxLoadedModels,
        c.numParallel,
        c.maxQueue,
        c.contextLength,
        c.flashAttention,
        c.kvCacheType,
      ],
      ["127.0.0.1", 11434, 300_000, undefined, 1, 512, 2048, false, "f16"],
    );
    assert.equal(c.gpu, "auto");
    assert.equal(c.numThread, physicalCoreCount());
    assert.equal(c.apiKey, undefined);
    assert.ok(Object.isFrozen(c));
  });

  it("reads every variable", () => {
    const c = loadConfig({
      LLMSRV_HOST: "0.0.0.0:8080",
      LLMSRV_KEEP_ALIVE: "-1",
      LLMSRV_MAX_LOADED_MODELS: "3",
      LLMSRV_NUM_PARALLEL: "4",
      LLMSRV_MAX_QUEUE: "10",
      LLMSRV_CONTEXT_LENGTH: "4096",
      LLMSRV_FLASH_ATTENTION: "1",
      LLMSRV_KV_CACHE_TYPE: "q8_0",
      LLMSRV_NUM_THREAD: "1",
      LLMSRV_API_KEY: "k",
      LLMSRV_MODELS: "/tmp/m",
    });
    assert.deepEqual(
      [
        c.host,
        c.port,
        c.keepAliveMs,
        c.maxLoadedModels,
        c.numParallel,
        c.maxQueue,
        c.contextLength,
        c.flashAttention,
        c.kvCacheType,
        c.numThread,
        c.apiKey,
        c.modelsDir,
      ],
      ["0.0.0.0", 8080, Number.POSITIVE_INFINITY, 3, 4, 10, 4096, true, "q8_0", 1, "k", "/tmp/m"],
    );
  });

  it("reports every invalid variable at once, each by name", () => {
    let error: unknown;
    try {
      loadConfig({
        LLMSRV_HOST: "a:b:c",
        LLMSRV_NUM_PARALLEL: "0",
        LLMSRV_FLASH_ATTENTION: "maybe",
        LLMSRV_NUM_THREAD: "9999",
      });
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 4);
    for (const name of [
      "LLMSRV_HOST",
      "LLMSRV_NUM_PARALLEL",
      "LLMSRV_FLASH_ATTENTION",
      "LLMSRV_NUM_THREAD",
    ]) {
      assert.ok(
        error.problems.some((p) => p.startsWith(name)),
        name,
      );
    }
  });

  it("reads LLMSRV_GPU: auto, cuda, vulkan or off, in any case; anything else stops start-up", () => {
    for (const mode of ["auto", "cuda", "vulkan", "off"] as const) {
      assert.equal(loadConfig({ LLMSRV_GPU: mode }).gpu, mode);
      assert.equal(loadConfig({ LLMSRV_GPU: ` ${mode.toUpperCase()} ` }).gpu, mode);
    }
    assert.equal(loadConfig({ LLMSRV_GPU: "" }).gpu, "auto");
    for (const bad of ["metal", "1", "gpu", "cpu"])
      assert.throws(
        () => loadConfig({ LLMSRV_GPU: bad }),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.problems.some(
            (p) => p === `LLMSRV_GPU: expected auto, cuda, vulkan, off, got "${bad}"`,
          ),
      );
  });

  it("leaves LLMSRV_MAX_LOADED_MODELS to the backend when unset (or OLLAMA_MAX_LOADED_MODELS=0)", () => {
    assert.equal(loadConfig({}).maxLoadedModels, undefined);
    assert.equal(loadConfig({ OLLAMA_MAX_LOADED_MODELS: "0" }).maxLoadedModels, undefined);
    assert.equal(loadConfig({ OLLAMA_MAX_LOADED_MODELS: "2" }).maxLoadedModels, 2);
    assert.equal(loadConfig({ LLMSRV_MAX_LOADED_MODELS: "1" }).maxLoadedModels, 1);
    assert.throws(
      () => loadConfig({ LLMSRV_MAX_LOADED_MODELS: "0" }),
      /LLMSRV_MAX_LOADED_MODELS: expected an integer >= 1, got "0"/,
    );
  });

  it("refuses a quantized KV cache without flash attention, naming both variables", () => {
    assert.throws(
      () => loadConfig({ LLMSRV_KV_CACHE_TYPE: "q4_0" }),
      /LLMSRV_KV_CACHE_TYPE: q4_0 needs LLMSRV_FLASH_ATTENTION=1/,
    );
    assert.equal(
      loadConfig({ LLMSRV_KV_CACHE_TYPE: "q4_0", LLMSRV_FLASH_ATTENTION: "1" }).kvCacheType,
      "q4_0",
    );
  });

  it("bounds JSON request bodies at 32 MiB unless LLMSRV_MAX_BODY_BYTES says otherwise", () => {
    assert.equal(loadConfig({}).maxBodyBytes, 32 * 1024 * 1024);
    assert.equal(loadConfig({ LLMSRV_MAX_BODY_BYTES: "1024" }).maxBodyBytes, 1024);
    assert.throws(() => loadConfig({ LLMSRV_MAX_BODY_BYTES: "0" }), /LLMSRV_MAX_BODY_BYTES/);
  });

  it("reads the resource limits: caps on options, a model memory cap with units, NOPRUNE", () => {
    const d = loadConfig({});
    assert.deepEqual(
      [d.maxNumCtx, d.maxNumBatch, d.maxNumPredict, d.maxModelMemory, d.noPrune],
      [131072, 2048, 32768, undefined, false],
    );
    const c = loadConfig({
      LLMSRV_MAX_NUM_CTX: "4096",
      LLMSRV_MAX_NUM_BATCH: "256",
      LLMSRV_MAX_NUM_PREDICT: "100",
      LLMSRV_MAX_MODEL_MEMORY: "1.5GiB",
      LLMSRV_NOPRUNE: "1",
    });
    assert.deepEqual(
      [c.maxNumCtx, c.maxNumBatch, c.maxNumPredict, c.maxModelMemory, c.noPrune],
      [4096, 256, 100, 1.5 * 2 ** 30, true],
    );
    assert.deepEqual(
      ["8000000000", "512 MiB", "4GB", "2kib"].map((v) => parseByteSize(v)),
      [8e9, 512 * 2 ** 20, 4e9, 2048],
    );
    for (const bad of ["0", "-1GiB", "8 parsecs", "lots"])
      assert.throws(
        () => loadConfig({ LLMSRV_MAX_MODEL_MEMORY: bad }),
        new RegExp(`LLMSRV_MAX_MODEL_MEMORY: expected a size in bytes > 0 .*got "${bad}"`),
      );
    assert.throws(
      () => loadConfig({ LLMSRV_MAX_NUM_CTX: "8" }),
      /LLMSRV_MAX_NUM_CTX: expected an integer >= 16/,
    );
    assert.throws(
      () => loadConfig({ LLMSRV_CONTEXT_LENGTH: "8192", LLMSRV_MAX_NUM_CTX: "4096" }),
      /LLMSRV_CONTEXT_LENGTH: 8192 exceeds LLMSRV_MAX_NUM_CTX 4096/,
    );
    assert.throws(() => loadConfig({ LLMSRV_NOPRUNE: "maybe" }), /LLMSRV_NOPRUNE: expected 1\/0/);
  });

  it("documents every variable with a meaning and a default", () => {
    assert.ok(CONFIG_VARIABLES.length >= 10);
    for (const v of CONFIG_VARIABLES)
      assert.ok(v.name.startsWith("LLMSRV_") && v.meaning && v.default);
  });
});
