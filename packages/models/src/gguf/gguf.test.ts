// Tests of the GGUF writer and reader: round trips and the errors of bad files.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { LlmsrvError } from "../errors.js";
import { GgmlTensorType } from "./gguf-format.js";
import { readGgufInfo } from "./gguf-reader.js";
import { gguf, writeGgufFile } from "./gguf-writer.js";

describe("GGUF writer and reader", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "gguf-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("round-trips metadata of every written type and tensor descriptors", async () => {
    const path = join(dir, "rt.gguf");
    await writeGgufFile(
      path,
      [
        ["a.str", gguf.str("héllo")],
        ["a.u32", gguf.u32(7)],
        ["a.f32", gguf.f32(0.5)],
        ["a.bool", gguf.bool(true)],
        ["a.strs", gguf.strings(["x", "y"])],
        ["a.ints", gguf.i32s([-1, 2])],
        ["a.long", gguf.f32s(Array.from({ length: 100 }, () => 0))],
      ],
      [{ name: "t", dims: [3, 2], type: GgmlTensorType.F32, data: () => Buffer.alloc(24) }],
    );
    const info = readGgufInfo(path);
    assert.equal(info.version, 3);
    assert.equal(info.metadata.get("a.str"), "héllo");
    assert.equal(info.metadata.get("a.u32"), 7);
    assert.equal(info.metadata.get("a.f32"), 0.5);
    assert.equal(info.metadata.get("a.bool"), true);
    assert.deepEqual(info.metadata.get("a.strs"), ["x", "y"]);
    assert.deepEqual(info.metadata.get("a.ints"), [-1, 2]);
    assert.deepEqual(info.metadata.get("a.long"), { arrayType: 6, length: 100 });
    assert.deepEqual(info.tensors, [{ name: "t", dims: [3, 2], type: 0, offset: 0 }]);
    assert.equal(info.parameterCount, 6);
  });

  it("refuses a tensor whose data has the wrong size", async () => {
    await assert.rejects(
      writeGgufFile(
        join(dir, "bad.gguf"),
        [],
        [{ name: "t", dims: [4], type: GgmlTensorType.F16, data: () => Buffer.alloc(3) }],
      ),
      /tensor t has 3 bytes, expected 8/,
    );
  });

  it("names the problem when a file is not GGUF", async () => {
    const notGguf = join(dir, "text.bin");
    await writeFile(notGguf, "hello world, not a model");
    assert.throws(
      () => readGgufInfo(notGguf),
      (e: unknown) =>
        e instanceof LlmsrvError && e.code === "not_gguf" && /magic bytes/.test(e.message),
    );
    const short = join(dir, "short.bin");
    await writeFile(short, "GG");
    assert.throws(() => readGgufInfo(short), /shorter than a GGUF header/);
    const truncated = join(dir, "trunc.gguf");
    const header = Buffer.alloc(24);
    header.writeUInt32LE(0x46554747, 0);
    header.writeUInt32LE(3, 4);
    header.writeBigUInt64LE(1n, 8);
    header.writeBigUInt64LE(5n, 16);
    await writeFile(truncated, header);
    assert.throws(() => readGgufInfo(truncated), /ends inside its header/);
  });
});
