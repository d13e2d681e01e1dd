/**
 * End to end with this project's model server (component C, `llmsrv`) and its demo model:
 * the launcher's exact invocation of `vectors load`, then queries with real embeddings.
 * Skips with the reason only when the llmsrv binary is absent (not built); a server that does
 * not start is a failure, as that is what this test is here to catch.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { llmsrvBin, runNode, startNode, vectorsBin } from "./child-process.js";
import { runVectors } from "./cli-harness.js";

const llmsrvAbsent = existsSync(llmsrvBin)
  ? undefined
  : `llmsrv is not built (${llmsrvBin} is absent)`;

describe("vectors with the real model server (llmsrv demo model)", { timeout: 600_000 }, () => {
  let server: ChildProcess | undefined;
  after(() => {
    server?.kill();
  });

  it("loads the sample through llmsrv embeddings and finds a book from its own summary", {
    skip: skipUnlessProvided(llmsrvAbsent),
  }, async () => {
    const work = await mkdtemp(join(tmpdir(), "vectors-llmsrv-"));
    const started = await startNode(llmsrvBin, ["serve", "--ensure-demo"], {
      cwd: work,
      env: { ...process.env, LLMSRV_HOST: "127.0.0.1:0", LLMSRV_MODELS: join(work, "models") },
      ready: /listening on (http:\/\/[^\s]+)/,
      timeoutMs: 300_000,
    });
    if ("failure" in started) assert.fail(`llmsrv did not start: ${started.failure}`);
    server = started.child;
    const env = {
      PATH: process.env.PATH,
      // The per-user default store, moved under the test's folder so no real home is touched.
      XDG_DATA_HOME: join(work, "xdg"),
      EMBED_BASE_URL: `${started.match[1]}/v1`,
      EMBED_MODEL: "demo:latest",
      EMBED_API_KEY: "quintet",
    };
    const load = await runNode(vectorsBin, ["load"], { cwd: work, env });
    assert.equal(load.code, 0, load.stderr);
    assert.match(load.stdout, /stored: 68 of 68 data row\(s\)\nids: 11\.\.78/);

    // In this process, whose folder is another: the same per-user store answers.
    const summary =
      "A fireman whose job is to burn books begins to read them in secret and turns against the society he serves.";
    const result = await runVectors(["query", summary, "--json"], env);
    assert.equal(result.code, 0, result.stderr);
    const hits = JSON.parse(result.stdout) as Array<{ doc_source: string; distance: number }>;
    assert.equal(hits.length, 3);
    assert.equal(hits[0]?.doc_source, "Fahrenheit 451");
    assert.ok((hits[0]?.distance ?? 1) < 0.01, `self-distance ${hits[0]?.distance}`);
    assert.ok((hits[0]?.distance ?? 0) < (hits[1]?.distance ?? 0));
    assert.ok((hits[1]?.distance ?? 0) <= (hits[2]?.distance ?? 0));
  });
});
