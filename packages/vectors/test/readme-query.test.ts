/**
 * The README's example query, run as the README says: llmsrv with its demo model, the
 * sample loaded, then `vectors query "<the README's query>"`. The table it prints must be
 * the one the README shows (distances within 1e-3: float sums differ across CPUs).
 * Skips with the reason when the llmsrv binary is absent or does not start.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { llmsrvBin, startNode } from "./child-process.js";
import { runVectors } from "./cli-harness.js";

const readmePath = fileURLToPath(new URL("../../README.md", import.meta.url));

/** The README's example: the query its prose names and the table shown after it. */
function readmeExample(): { query: string; table: string[] } {
  const text = readFileSync(readmePath, "utf8");
  const found = text.match(/`vectors query "([^"]+)"` prints[^`]*?```text\n([\s\S]*?)```/);
  assert.ok(found, 'README: a sentence naming `vectors query "…"` prints, then a ```text table');
  return { query: found[1] ?? "", table: (found[2] ?? "").trimEnd().split("\n") };
}

/** A table row's cells (columns are separated by two or more spaces). */
const cells = (row: string) => row.trim().split(/ {2,}/);

describe("the README's example query with llmsrv's demo model", { timeout: 600_000 }, () => {
  let server: ChildProcess | undefined;
  let work: string | undefined;
  after(async () => {
    server?.kill();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("prints the README's table: the book that shares the query's words first", async (t) => {
    const example = readmeExample();
    assert.equal(example.query, "a whale hunt at sea");
    assert.equal(cells(example.table[2] ?? "")[1], "Moby-Dick", "the README names Moby-Dick first");
    if (!existsSync(llmsrvBin)) {
      t.skip(`llmsrv is not built (${llmsrvBin} is absent)`);
      return;
    }
    work = await mkdtemp(join(tmpdir(), "vectors-readme-"));
    const started = await startNode(llmsrvBin, ["serve", "--ensure-demo"], {
      cwd: work,
      env: { ...process.env, LLMSRV_HOST: "127.0.0.1:0", LLMSRV_MODELS: join(work, "models") },
      ready: /listening on (http:\/\/[^\s]+)/,
      timeoutMs: 300_000,
    });
    if ("failure" in started) {
      t.skip(`llmsrv did not start: ${started.failure}`);
      return;
    }
    server = started.child;
    const env = {
      EMBED_BASE_URL: `${started.match[1]}/v1`,
      VECTORS_DATA_DIR: join(work, "data"),
    };
    const load = await runVectors(["load"], env);
    assert.equal(load.code, 0, load.stderr);
    const query = await runVectors(["query", example.query], env);
    assert.equal(query.code, 0, query.stderr);
    const printed = query.stdout.trimEnd().split("\n");
    assert.equal(printed.length, example.table.length, query.stdout);
    assert.deepEqual(printed.slice(0, 2), example.table.slice(0, 2), "header and rule");
    for (let i = 2; i < printed.length; i++) {
      const got = cells(printed[i] ?? "");
      const want = cells(example.table[i] ?? "");
      assert.deepEqual(got.slice(0, 3), want.slice(0, 3), `row ${i - 1}: ${printed[i]}`);
      const diff = Math.abs(Number(got[3]) - Number(want[3]));
      assert.ok(diff < 1e-3, `row ${i - 1}: distance ${got[3]}, README ${want[3]}`);
    }
  });
});
