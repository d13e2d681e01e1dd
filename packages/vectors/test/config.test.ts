import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { configTable, defaultDataDir, loadConfig, sampleDataset } from "../src/config.js";
import { ConfigError } from "../src/errors.js";

describe("configuration", () => {
  it("uses the documented defaults when nothing is set", () => {
    const config = loadConfig({});
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, join(homedir(), ".local", "share", "quintet", "vectors"));
    assert.equal(config.embedDim, 2048);
    assert.equal(config.embedBaseUrl, "http://127.0.0.1:11434/v1");
    assert.equal(config.embedModel, "demo:latest");
    assert.equal(config.dataset, sampleDataset);
    assert.ok(Object.isFrozen(config));
  });

  it("points the default dataset at the shipped sample file", () => {
    assert.ok(existsSync(sampleDataset), sampleDataset);
  });

  it("accepts a postgres URL and an EMBED_BASE_URL ending with /v1", () => {
    const config = loadConfig({
      PG_VECTOR_DB: "postgres://user:secret@db.example:5432/vectors",
      EMBED_BASE_URL: "http://127.0.0.1:8000/v1/",
      EMBED_DIM: "384",
    });
    assert.equal(config.databaseUrl, "postgres://user:secret@db.example:5432/vectors");
    assert.equal(config.embedBaseUrl, "http://127.0.0.1:8000/v1");
    assert.equal(config.embedDim, 384);
  });

  it("reports every bad variable together, each by name", () => {
    const bad = {
      PG_VECTOR_DB: "mysql://x@y/z",
      EMBED_BASE_URL: "http://127.0.0.1:11434/api",
      EMBED_DIM: "0",
      EMBED_BATCH_SIZE: "many",
      EMBED_CONCURRENCY: "-1",
      EMBED_MODEL: " ",
    };
    assert.throws(
      () => loadConfig(bad),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.code, "invalid_config");
        for (const name of Object.keys(bad)) {
          assert.ok(
            error.problems.some((p) => p.startsWith(name)),
            `${name} in ${error.message}`,
          );
        }
        assert.equal(error.problems.length, Object.keys(bad).length);
        return true;
      },
    );
  });

  it("refuses an embedding dimension above pgvector's 16000", () => {
    assert.throws(() => loadConfig({ EMBED_DIM: "16001" }), /EMBED_DIM/);
  });

  it("lists every variable it reads in the table used by --help and the README", () => {
    const names = configTable.map(([name]) => name);
    for (const name of [
      "PG_VECTOR_DB",
      "EMBED_MODEL",
      "EMBED_BASE_URL",
      "EMBED_API_KEY",
      "DOCS_DATASET",
      "EMBED_DIM",
    ]) {
      assert.ok(names.includes(name as (typeof names)[number]), name);
    }
  });

  it("documents every variable with its default in the package README", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    assert.ok(readme.includes("## Configuration"), "the README has a configuration section");
    for (const [name, , fallback] of configTable) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
      assert.ok(row, `${name} has a row`);
      assert.ok(row.includes(fallback.replace(/^data\/books\.txt.*/, "data/books.txt")), name);
    }
  });

  it("reads the connect timeout from PG_CONNECT_TIMEOUT, and from the URL first", () => {
    assert.equal(loadConfig({}).connectTimeoutMs, 10_000);
    assert.equal(loadConfig({ PG_CONNECT_TIMEOUT: "3" }).connectTimeoutMs, 3000);
    assert.equal(loadConfig({ PG_CONNECT_TIMEOUT: "0" }).connectTimeoutMs, 0);
    const url = "postgres://u:p@db:5432/v?connect_timeout=7";
    assert.equal(loadConfig({ PG_VECTOR_DB: url, PG_CONNECT_TIMEOUT: "3" }).connectTimeoutMs, 7000);
    assert.throws(() => loadConfig({ PG_CONNECT_TIMEOUT: "soon" }), /PG_CONNECT_TIMEOUT must be/);
    assert.throws(() => loadConfig({ PG_CONNECT_TIMEOUT: "-1" }), /PG_CONNECT_TIMEOUT/);
    assert.throws(
      () => loadConfig({ PG_VECTOR_DB: "postgres://u:p@db/v?connect_timeout=1.5" }),
      /PG_VECTOR_DB: connect_timeout must be whole seconds/,
    );
  });

  it("validates the failed-batch limit and the index build memory", () => {
    const config = loadConfig({});
    assert.equal(config.maxFailedBatches, 3);
    assert.equal(config.maintenanceWorkMem, "1GB");
    assert.equal(loadConfig({ VECTORS_MAINTENANCE_WORK_MEM: "512MB" }).maintenanceWorkMem, "512MB");
    assert.equal(loadConfig({ EMBED_MAX_FAILED_BATCHES: "10" }).maxFailedBatches, 10);
    for (const bad of ["lots", "0MB", "512", "32GB", "1TB"]) {
      assert.throws(
        () => loadConfig({ VECTORS_MAINTENANCE_WORK_MEM: bad }),
        /VECTORS_MAINTENANCE_WORK_MEM must be a size from 1MB to 16GB/,
        bad,
      );
    }
    assert.throws(() => loadConfig({ EMBED_MAX_FAILED_BATCHES: "0" }), /EMBED_MAX_FAILED_BATCHES/);
  });

  it("keeps the embedded store in one per-user directory, whatever the current folder", () => {
    const home = "/home/someone";
    assert.equal(loadConfig({ HOME: home }).dataDir, "/home/someone/.local/share/quintet/vectors");
    assert.equal(
      loadConfig({ HOME: home, XDG_DATA_HOME: "/data/xdg" }).dataDir,
      "/data/xdg/quintet/vectors",
    );
    // The XDG spec says a relative XDG_DATA_HOME is to be ignored.
    assert.equal(
      defaultDataDir({ HOME: home, XDG_DATA_HOME: "rel/xdg" }),
      loadConfig({ HOME: home }).dataDir,
    );
    const cwd = process.cwd();
    try {
      process.chdir("/");
      const fromRoot = loadConfig({ HOME: home }).dataDir;
      process.chdir(homedir());
      assert.equal(loadConfig({ HOME: home }).dataDir, fromRoot);
    } finally {
      process.chdir(cwd);
    }
  });

  it("makes a relative VECTORS_DATA_DIR absolute and refuses a blank one", () => {
    assert.equal(loadConfig({ VECTORS_DATA_DIR: "store" }).dataDir, resolve("store"));
    assert.equal(loadConfig({ VECTORS_DATA_DIR: "/abs/store" }).dataDir, "/abs/store");
    assert.equal(loadConfig({ VECTORS_DATA_DIR: "memory://" }).dataDir, "memory://");
    assert.throws(
      () => loadConfig({ VECTORS_DATA_DIR: "  " }),
      /VECTORS_DATA_DIR must not be blank/,
    );
  });

  it("reads the lock and statement limits in seconds, 0 meaning none", () => {
    const config = loadConfig({});
    assert.equal(config.lockTimeoutMs, 30_000);
    assert.equal(config.statementTimeoutMs, 0);
    const set = loadConfig({ PG_LOCK_TIMEOUT: "0", PG_STATEMENT_TIMEOUT: "600" });
    assert.equal(set.lockTimeoutMs, 0);
    assert.equal(set.statementTimeoutMs, 600_000);
    assert.throws(() => loadConfig({ PG_LOCK_TIMEOUT: "1.5" }), /PG_LOCK_TIMEOUT must be/);
    assert.throws(() => loadConfig({ PG_STATEMENT_TIMEOUT: "-3" }), /PG_STATEMENT_TIMEOUT/);
  });
});
