import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readTar, writeTar } from "./tar.js";

describe("tar archives", () => {
  it("round-trip files, including empty ones and names over 100 bytes", () => {
    const long = `${"d".repeat(90)}/${"e".repeat(60)}/file.rego`;
    const entries = [
      { name: "/a.json", content: Buffer.from('{"a": 1}') },
      { name: "/empty", content: Buffer.alloc(0) },
      { name: long, content: Buffer.alloc(1500, 120) },
    ];
    const archive = writeTar(entries, 0);
    assert.equal(archive.length % 512, 0);
    const back = readTar(archive);
    assert.deepEqual(
      back.map((e) => [e.name, e.content.length]),
      entries.map((e) => [e.name, e.content.length]),
    );
    assert.ok(back[2]?.content.equals(entries[2]?.content as Buffer));
  });

  it("refuses names too long for ustar and truncated archives", () => {
    assert.throws(
      () => writeTar([{ name: "x".repeat(300), content: Buffer.alloc(1) }]),
      /too long/,
    );
    const archive = writeTar([{ name: "a", content: Buffer.alloc(2000) }]);
    assert.throws(() => readTar(archive.subarray(0, 1024)), /truncated/);
  });
});
