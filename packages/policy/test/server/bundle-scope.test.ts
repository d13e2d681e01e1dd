/** Paths a bundle's manifest owns are read-only over the Data and Policy APIs, as in OPA. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { writeTar } from "../../src/loader/tar.js";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

function bundle(manifest: unknown): Buffer {
  return gzipSync(
    writeTar([
      { name: "/a/data.json", content: Buffer.from('{"x": 1}') },
      { name: "/a/p.rego", content: Buffer.from("package a.p\n\ny := data.a.x + 1\n") },
      { name: "/.manifest", content: Buffer.from(JSON.stringify(manifest)) },
    ]),
  );
}

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { code: string; message: string };
  return { status: res.status, code: body.code, message: body.message };
}

describe("a server started from a bundle with roots", () => {
  const files = policyDir({ "other/data.json": '{"free": 1}' });
  const bundleFile = join(files.dir, "b.tar.gz");
  writeFileSync(bundleFile, bundle({ revision: "r1", roots: ["a"] }));
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir]);
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });
  const owned = (path: string) => ({
    status: 400,
    code: "invalid_parameter",
    message: `path ${path} is owned by bundle "${bundleFile}"`,
  });

  it("refuses data writes at, below and above a root, with OPA's message", async () => {
    assert.deepEqual(await errorOf(await h.send("PUT", "/v1/data/a/x", "2")), owned("a/x"));
    assert.deepEqual(await errorOf(await h.send("DELETE", "/v1/data/a")), owned("a"));
    const patch = await h.send(
      "PATCH",
      "/v1/data",
      JSON.stringify([{ op: "add", path: "/a/z", value: 1 }]),
    );
    assert.deepEqual(await errorOf(patch), owned("a/z"));
    assert.deepEqual(await errorOf(await h.send("PUT", "/v1/data", "{}")), {
      status: 400,
      code: "invalid_parameter",
      message: "can't write to document root with bundle roots configured",
    });
    assert.deepEqual(await (await h.get("/v1/data/a/p/y")).json(), { result: 2 });
  });

  it("allows writes outside the roots", async () => {
    assert.equal((await h.send("PUT", "/v1/data/other/free", "5")).status, 204);
    assert.deepEqual(await (await h.get("/v1/data/other/free")).json(), { result: 5 });
  });

  it("refuses policy changes in a bundle's packages, allows others", async () => {
    const put = await h.send("PUT", "/v1/policies/mine.rego", "package a.q\n\nz := 1\n");
    assert.deepEqual(await errorOf(put), owned("a/q"));
    const del = await h.send("DELETE", `/v1/policies/${bundleFile.replace(/^\//, "")}/a/p.rego`);
    assert.deepEqual(await errorOf(del), owned("a/p"));
    const ok = await h.send("PUT", "/v1/policies/mine.rego", "package c\n\nz := 1\n");
    assert.equal(ok.status, 200);
  });
});

describe("a server started from a bundle that owns every path", () => {
  const files = policyDir({});
  const bundleFile = join(files.dir, "all.tar.gz");
  writeFileSync(bundleFile, bundle({ revision: "r1" }));
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir]);
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("refuses every write with 'all paths owned by bundle'", async () => {
    assert.deepEqual(await errorOf(await h.send("PUT", "/v1/data/elsewhere", "1")), {
      status: 400,
      code: "invalid_parameter",
      message: `all paths owned by bundle "${bundleFile}"`,
    });
  });
});
