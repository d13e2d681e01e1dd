/** `rego build` writes a bundle that `eval`, `inspect` and `run` load back. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { readTar } from "../../src/loader/tar.js";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "bad/x.rego": "package x\n\np := := 1\n",
  "deep/a_very_long_directory_name_for_the_ustar_prefix_field/another_long_directory_name_here/long_name_policy.rego":
    "package deep\n\nok := true\n",
});
after(() => files.remove());

describe("rego build", () => {
  it("writes OPA's bundle layout with -b", async () => {
    const out = join(files.dir, "examples.tar.gz");
    const run = await rego(["build", "-b", "-r", "rev-1", "-o", out, EXAMPLES_DIR]);
    assert.equal(run.code, 0, run.stderr);
    const entries = readTar(gunzipSync(readFileSync(out)));
    assert.deepEqual(entries.map((e) => e.name).sort(), [
      "/.manifest",
      "/data.json",
      "/policies/limits.rego",
      "/policies/permissions.rego",
      "/policies/simple.rego",
    ]);
    const manifest = JSON.parse(
      entries.find((e) => e.name === "/.manifest")?.content.toString() ?? "",
    );
    assert.equal(manifest.revision, "rev-1");
    const data = JSON.parse(entries.find((e) => e.name === "/data.json")?.content.toString() ?? "");
    assert.equal(data.user_roles.alice.role, "admin");
  });

  it("produces a bundle that eval and inspect load back", async () => {
    const out = join(files.dir, "again.tar.gz");
    assert.equal((await rego(["build", "-b", "-o", out, EXAMPLES_DIR])).code, 0);
    const run = await rego(["eval", "-d", out, "-I", "--format", "raw", "data.limits.limit"], {
      stdin: '{"name":"bob"}',
    });
    assert.equal(run.stdout, "1000.75\n", run.stderr);
    const inspect = await rego(["inspect", out]);
    assert.match(
      inspect.stdout,
      /data\.permissions +\| .*again\.tar\.gz\/policies\/permissions\.rego/,
    );
  });

  it("keeps long paths through the ustar prefix field", async () => {
    const out = join(files.dir, "deep.tar.gz");
    assert.equal((await rego(["build", "-b", "-o", out, join(files.dir, "deep")])).code, 0);
    const names = readTar(gunzipSync(readFileSync(out))).map((e) => e.name);
    assert.ok(
      names.some(
        (n) =>
          n.endsWith("/another_long_directory_name_here/long_name_policy.rego") && n.length > 100,
      ),
    );
    const run = await rego(["eval", "-d", out, "--format", "raw", "data.deep.ok"]);
    assert.equal(run.stdout, "true\n");
  });

  it("refuses policies that do not parse and writes nothing", async () => {
    const out = join(files.dir, "bad.tar.gz");
    const run = await rego(["build", "-o", out, join(files.dir, "bad")]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /rego_parse_error/);
    assert.throws(() => readFileSync(out));
  });

  it("reports a corrupt bundle as a load problem", async () => {
    const bogus = tempTree({ "broken.tar.gz": "not gzip at all" });
    const run = await rego([
      "eval",
      "-d",
      join(bogus.dir, "broken.tar.gz"),
      "--format",
      "pretty",
      "data",
    ]);
    bogus.remove();
    assert.equal(run.code, 2);
    assert.match(run.stderr, /broken\.tar\.gz: bundle: /);
  });
});
