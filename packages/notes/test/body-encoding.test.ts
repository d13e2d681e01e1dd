import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { errorMessageOf, formBody, logIn, signUp, useTestApp } from "./support/test-app.js";

const EMAIL = "zip@example.com";
const PASSWORD = "zip password";
const pglite = STORAGE_TARGETS[0] as (typeof STORAGE_TARGETS)[number];

describe("compressed request bodies", () => {
  const suite = useTestApp(pglite);
  let cookie: string;
  before(async () => {
    await signUp(suite.app, EMAIL, PASSWORD);
    cookie = await logIn(suite.app, EMAIL, PASSWORD);
  });

  const postNote = (payload: Buffer | string, encoding?: string) =>
    suite.app.inject({
      method: "POST",
      url: "/notes",
      payload,
      headers: {
        cookie,
        "content-type": "application/x-www-form-urlencoded",
        ...(encoding ? { "content-encoding": encoding } : {}),
      },
    });
  const noteCount = async () => (await suite.storage.db.query("SELECT id FROM notes")).rows.length;

  it("answers 415 naming the encoding, not `Invalid note !!!`, and stores nothing", async () => {
    const form = formBody({ body: "compressed note" });
    for (const [encoding, payload] of [
      ["gzip", gzipSync(form)],
      ["br", brotliCompressSync(form)],
      ["GZIP, identity", gzipSync(form)],
      ["deflate, gzip", gzipSync(form)],
    ] as const) {
      const response = await postNote(payload, encoding);
      assert.equal(response.statusCode, 415, encoding);
      const expected = `Unsupported Content-Encoding: ${encoding.toLowerCase().replace(", identity", "")} !!! Send the form uncompressed.`;
      assert.equal(errorMessageOf(response.body), expected, encoding);
    }
    assert.equal(await noteCount(), 0);
  });

  it("accepts a body marked `identity`, or with no encoding", async () => {
    assert.equal((await postNote(formBody({ body: "plain" }), "identity")).statusCode, 307);
    assert.equal((await postNote(formBody({ body: "plain too" }))).statusCode, 307);
    assert.equal(await noteCount(), 2);
  });

  it("refuses an encoded sign-up or login too, before reading it", async () => {
    const response = await suite.app.inject({
      method: "POST",
      url: "/login",
      payload: gzipSync(formBody({ email: EMAIL, password: PASSWORD })),
      headers: { "content-type": "application/x-www-form-urlencoded", "content-encoding": "gzip" },
    });
    assert.equal(response.statusCode, 415);
    assert.match(errorMessageOf(response.body) ?? "", /Content-Encoding: gzip/);
  });
});
