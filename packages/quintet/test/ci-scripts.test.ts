/**
 * The shell scripts .ci/run relies on: scripts/with-node.sh (a Node LTS from the npm
 * registry) and scripts/ensure-pgvector.sh (pgvector for the local PostgreSQL). The paths
 * that download or build are exercised by .ci/run itself; these check the decisions around them.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "./package-commands.js";

function script(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(join(repoRoot, "scripts", name), args, {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
}

describe("scripts/with-node.sh", () => {
  it("refuses a missing or non-numeric major with exit 2 and its usage", () => {
    for (const args of [[], ["lts", "node", "-v"], ["22"]]) {
      const result = script("with-node.sh", args);
      assert.equal(result.status, 2);
      assert.match(result.stderr, /usage: scripts\/with-node.sh <major> <command>/);
    }
  });

  it("runs the command with the Node on the PATH when that is the major asked for", () => {
    const major = process.versions.node.split(".")[0] ?? "";
    const result = script("with-node.sh", [major, "node", "-p", "process.version"], {
      QUINTET_NODE_CACHE: "/nonexistent/never-used",
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), process.version);
    assert.match(result.stderr, /already on the PATH/);
  });
});

describe("scripts/ensure-pgvector.sh", () => {
  it("exits 1 naming the address when no PostgreSQL answers", () => {
    const url = "postgres://postgres@127.0.0.1:1/none";
    const result = script("ensure-pgvector.sh", [], { PGVECTOR_URL: url });
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /no PostgreSQL answers at postgres:\/\/postgres@127\.0\.0\.1:1\/none/,
    );
  });

  const url = process.env.TEST_DATABASE_URL;
  it("leaves a server that already offers the extension alone", {
    skip: url ? false : "TEST_DATABASE_URL is not set; no real PostgreSQL server to ask",
  }, () => {
    const result = script("ensure-pgvector.sh", [], { PGVECTOR_URL: url });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /already offers pgvector \d+\.\d+\.\d+/);
  });
});
