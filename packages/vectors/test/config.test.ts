import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { configTable, loadConfig, sampleDataset } from "../src/config.js";
import { ConfigError } from "../src/errors.js";

describe("configuration", () => {
  it("uses the documented defaults when nothing is set", () => {
    const config = loadConfig({});
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, "./.data/vectors");
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

  it("documents every variable with its default in the README", () => {
    // The configuration table lives in the root README, in the vector store's section.
    const root = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
    const readme = root.slice(root.indexOf("## E. Vector store"));
    assert.ok(readme.includes("### Configuration"), "the root README has a vectors section");
    for (const [name] of configTable) {
      assert.match(readme, new RegExp(`\\| \`${name}\` \\|`), name);
    }
  });
});
