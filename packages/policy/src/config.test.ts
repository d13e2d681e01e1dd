import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "@quintet/kit";
import { configTable, defaultWorkers, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const c = loadConfig({});
    assert.deepEqual(
      { ...c },
      {
        addr: "localhost:8181",
        maxBodyBytes: 1048576,
        decisionLogs: false,
        evalTimeoutMs: 30000,
        maxInputDepth: 1000,
        maxCollectionSize: 1000000,
        shutdownGraceMs: 10000,
        logLevel: "info",
        workers: defaultWorkers(),
      },
    );
    assert.ok(Object.isFrozen(c));
    for (const [name, , def] of configTable) assert.ok(def.length > 0, name);
  });

  it("reads every REGO_* variable", () => {
    const c = loadConfig({
      REGO_ADDR: "0.0.0.0:9000",
      REGO_MAX_BODY_BYTES: "2048",
      REGO_DECISION_LOGS: "console",
      REGO_EVAL_TIMEOUT_MS: "500",
      REGO_MAX_INPUT_DEPTH: "20",
      REGO_MAX_COLLECTION_SIZE: "300",
      REGO_SHUTDOWN_GRACE_MS: "0",
      REGO_LOG_LEVEL: "error",
    });
    assert.equal(c.addr, "0.0.0.0:9000");
    assert.equal(c.maxBodyBytes, 2048);
    assert.equal(c.decisionLogs, true);
    assert.equal(c.evalTimeoutMs, 500);
    assert.equal(c.maxInputDepth, 20);
    assert.equal(c.maxCollectionSize, 300);
    assert.equal(c.shutdownGraceMs, 0);
    assert.equal(c.logLevel, "error");
  });

  it("keeps 0 for the evaluation timeout only when it is set explicitly", () => {
    assert.equal(loadConfig({ REGO_EVAL_TIMEOUT_MS: "0" }).evalTimeoutMs, 0);
    assert.equal(loadConfig({ REGO_EVAL_TIMEOUT_MS: "" }).evalTimeoutMs, 30000);
  });

  it("reports all bad variables at once, each by name", () => {
    try {
      loadConfig({
        REGO_ADDR: "nowhere",
        REGO_MAX_BODY_BYTES: "-1",
        REGO_DECISION_LOGS: "yes",
        REGO_LOG_LEVEL: "loud",
        REGO_MAX_INPUT_DEPTH: "0",
        REGO_MAX_COLLECTION_SIZE: "many",
      });
      assert.fail("expected ConfigError");
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.problems.length, 6);
      for (const name of [
        "REGO_ADDR",
        "REGO_MAX_BODY_BYTES",
        "REGO_DECISION_LOGS",
        "REGO_LOG_LEVEL",
        "REGO_MAX_INPUT_DEPTH",
        "REGO_MAX_COLLECTION_SIZE",
      ]) {
        assert.ok(
          e.problems.some((p) => p.startsWith(name)),
          name,
        );
      }
    }
  });
  it("reads REGO_SERVER_WORKERS: 0 for the main thread, otherwise threads; default at least 2", () => {
    assert.equal(loadConfig({ REGO_SERVER_WORKERS: "0" }).workers, 0);
    assert.equal(loadConfig({ REGO_SERVER_WORKERS: "3" }).workers, 3);
    assert.equal(loadConfig({}).workers, defaultWorkers());
    assert.ok(defaultWorkers() >= 2);
    for (const bad of ["-1", "two", "1.5", "5000"]) {
      assert.throws(
        () => loadConfig({ REGO_SERVER_WORKERS: bad }),
        (e: unknown) =>
          e instanceof ConfigError && e.problems.some((p) => p.startsWith("REGO_SERVER_WORKERS")),
        bad,
      );
    }
  });
});
