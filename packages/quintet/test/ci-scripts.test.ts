/**
 * The scripts .ci/run relies on: scripts/with-node.sh (a Node LTS from the npm registry),
 * scripts/ensure-pgvector.sh (pgvector for the local PostgreSQL) and scripts/run-tests.mjs
 * (the suite, with its skips summed up), and the variable .ci/run sets so that a skip for want
 * of something CI provides fails the run. The paths that download or build are exercised by
 * .ci/run itself; these check the decisions around them.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
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
    skip: skipUnlessProvided(
      url ? undefined : "TEST_DATABASE_URL is not set; no real PostgreSQL server to ask",
    ),
  }, () => {
    const result = script("ensure-pgvector.sh", [], { PGVECTOR_URL: url });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /already offers pgvector \d+\.\d+\.\d+/);
  });
});

describe("scripts/run-tests.mjs", () => {
  // A package of its own in a temporary directory: two skips with one reason, one with another,
  // one skip for want of something provided, and a test that passes.
  const dir = mkdtempSync(join(tmpdir(), "run-tests-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const helper = pathToFileURL(join(repoRoot, "packages/kit/dist/src/skip-unless-provided.js"));
  mkdirSync(join(dir, "dist"));
  writeFileSync(
    join(dir, "dist", "sample.test.js"),
    `import { describe, it } from "node:test";
import { skipUnlessProvided } from ${JSON.stringify(helper.href)};
it("needs openssl", { skip: "openssl is not installed" }, () => {});
describe("with the model", { skip: "the model is absent" }, () => { it("runs it", () => {}); });
it("needs root", { skip: skipUnlessProvided("needs root to drop privileges") }, () => {});
it("reads the model", (t) => { t.skip("the model is absent"); });
it("passes", () => {});
`,
  );

  function runTests(env: NodeJS.ProcessEnv) {
    const clean = { ...process.env, ...env };
    // Under this test runner the child would report to it instead of printing its summary.
    delete clean.NODE_TEST_CONTEXT;
    return spawnSync(process.execPath, [join(repoRoot, "scripts/run-tests.mjs"), dir], {
      cwd: repoRoot,
      encoding: "utf8",
      env: clean,
    });
  }

  const summary = [
    "run-tests: 4 skipped (a skipped suite counts once)",
    "  1 x openssl is not installed",
    `      ${relative(repoRoot, join(dir, "dist/sample.test.js"))}: needs openssl`,
    "  2 x the model is absent",
  ].join("\n");

  it("passes a run with skips and says how many skipped and why, grouped by reason", () => {
    const result = runTests({ QUINTET_REQUIRE_ALL: "0" });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.ok(result.stdout.includes(summary), result.stdout);
    assert.match(result.stdout, /1 x needs root to drop privileges\n {6}.*: needs root\n/);
    assert.match(result.stdout, /: with the model\n {6}.*: reads the model\n/);
  });

  it("fails the run under QUINTET_REQUIRE_ALL=1, naming what was missing, and still sums up", () => {
    const result = runTests({ QUINTET_REQUIRE_ALL: "1" });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /needs root to drop privileges \(QUINTET_REQUIRE_ALL=1: this run/);
    assert.ok(result.stdout.includes(summary), result.stdout);
  });
});

describe(".ci/run", () => {
  it("sets QUINTET_REQUIRE_ALL=1 before any test runs", () => {
    const text = readFileSync(join(repoRoot, ".ci/run"), "utf8");
    const set = text.indexOf("\nexport QUINTET_REQUIRE_ALL=1\n");
    assert.ok(set > 0, "export QUINTET_REQUIRE_ALL=1 on a line of its own");
    for (const run of ["npm test", "scripts/run-tests.mjs"]) {
      assert.ok(text.lastIndexOf(run) > set, `${run} runs after the variable is set`);
    }
  });
});
