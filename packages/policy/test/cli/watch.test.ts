/** `rego run --server --watch`: changed files are served after a reload; broken ones are not. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pathsSignature } from "../../src/cli/watch.js";
import { tempTree } from "../fixtures.js";
import { eventually, listeningUrl, startRun } from "./cli-harness.js";

const files = tempTree({
  "w.rego": "package w\n\nx := 1\n",
  "data.json": '{"limit": 10}',
});
after(() => files.remove());

describe("rego run --server --watch", () => {
  it("reloads changed policy and data files and keeps the last good set on errors", async () => {
    const run = startRun(["--server", "--watch", "--addr", "127.0.0.1:0", files.dir]);
    const { out } = run;
    try {
      const url = await listeningUrl(run);
      const get = async (path: string) =>
        (await (await fetch(`${url}/v1/data/${path}`)).json()) as { result?: unknown };
      assert.deepEqual(await get("w/x"), { result: 1 });

      writeFileSync(join(files.dir, "w.rego"), "package w\n\nx := data.limit * 2\n");
      writeFileSync(join(files.dir, "data.json"), '{"limit": 21}');
      await eventually(async () => (await get("w/x")).result === 42, "the new answer");
      assert.match(out.stderr, /"msg":"Reloaded policies and data."/);

      writeFileSync(join(files.dir, "w.rego"), "package w\n\nx := := 3\n");
      await eventually(() => /Reload failed/.test(out.stderr), "the failed reload");
      assert.match(out.stderr, /w\.rego:3:\d+: rego_parse_error/);
      assert.deepEqual(await get("w/x"), { result: 42 });
    } finally {
      run.stop();
      assert.equal(await run.done, 0);
    }
  });

  it("the signature changes when a file is added, rewritten or removed", () => {
    const tree = tempTree({ "a.rego": "package a\n" });
    try {
      const before = pathsSignature([tree.dir]);
      writeFileSync(join(tree.dir, "b.rego"), "package b\n");
      const added = pathsSignature([tree.dir]);
      assert.notEqual(added, before);
      writeFileSync(join(tree.dir, "b.rego"), "package b\n\nx := 1\n");
      assert.notEqual(pathsSignature([tree.dir]), added);
      assert.equal(pathsSignature([tree.dir]), pathsSignature([tree.dir]));
    } finally {
      tree.remove();
    }
  });
});
