/** `--ignore` on the commands that load directories as OPA's do: eval, deps, build, check (test has its own). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "policies/p.rego": "package p\n\nx := 1\n",
  "policies/broken_gen.rego": "package p\n\ny := \n",
  "policies/vendor/v.rego": "package p\n\nx := 2\n",
});
after(() => files.remove());
const dir = join(files.dir, "policies");
const IGNORE = ["--ignore", "*_gen.rego", "--ignore", "vendor"];

describe("--ignore", () => {
  it("rego eval loads only what is not ignored", async () => {
    const plain = await rego(["eval", "-d", dir, "-f", "raw", "data.p.x"]);
    assert.notEqual(plain.code, 0);
    const run = await rego(["eval", ...IGNORE, "-d", dir, "-f", "raw", "data.p.x"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "1\n");
    const metrics = await rego(["eval", ...IGNORE, "--metrics", "-d", dir, "data.p.x"]);
    assert.equal(metrics.code, 0, metrics.stderr);
  });

  it("rego deps loads only what is not ignored", async () => {
    assert.equal((await rego(["deps", "-d", dir, "data.p.x"])).code, 1);
    const run = await rego(["deps", ...IGNORE, "-d", dir, "-f", "json", "data.p.x"]);
    assert.equal(run.code, 0, run.stderr);
  });

  it("rego build bundles only what is not ignored", async () => {
    const out = join(files.dir, "bundle.tar.gz");
    assert.equal((await rego(["build", "-o", out, dir])).code, 1);
    const run = await rego(["build", ...IGNORE, "-o", out, dir]);
    assert.equal(run.code, 0, run.stderr);
  });

  it("rego check checks only what is not ignored", async () => {
    const plain = await rego(["check", dir]);
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, /broken_gen\.rego/);
    const run = await rego(["check", ...IGNORE, dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
  });
});
