import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { sampleDataset } from "../src/config.js";
import { DatasetError } from "../src/errors.js";
import { parseDataset, readDataset } from "../src/loader/dataset.js";
import { byteLines } from "../src/loader/text-lines.js";

/** Writes `bytes` to a new file and returns its path. */
async function fileOf(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vectors-ds-"));
  const path = join(dir, "data.txt");
  await writeFile(path, bytes);
  return path;
}

describe("dataset parsing", () => {
  it("skips the header row and keeps title, author and summary of each line", () => {
    const { rows, malformed } = parseDataset("title|author|summary\nA|B|C\nD | E | F\n");
    assert.deepEqual(malformed, []);
    assert.deepEqual(rows, [
      { line: 2, title: "A", author: "B", summary: "C" },
      { line: 3, title: "D", author: "E", summary: "F" },
    ]);
  });

  it("reports rows with the wrong number of fields by line number and keeps the rest", () => {
    const text = "title|author|summary\nok|a|s\nonly two|fields\n\nx|y|z|extra\nfine|b|t\r\n";
    const { rows, malformed } = parseDataset(text);
    assert.deepEqual(
      rows.map((r) => r.line),
      [2, 6],
    );
    assert.deepEqual(
      malformed.map((m) => m.line),
      [3, 5],
    );
    assert.match(malformed[0]?.reason ?? "", /expected 3 fields.*found 2/);
    assert.match(malformed[1]?.reason ?? "", /found 4/);
  });

  it("reports a row whose summary is empty", () => {
    const { rows, malformed } = parseDataset("h|h|h\nTitle|Author|  \n");
    assert.equal(rows.length, 0);
    assert.deepEqual(malformed, [{ line: 2, reason: "the summary is empty" }]);
  });

  it("treats a file holding only the header as empty", () => {
    assert.deepEqual(parseDataset("title|author|summary\n"), { rows: [], malformed: [] });
  });

  it("ships a sample of at least 60 well-formed books", async () => {
    const { rows, malformed } = await readDataset(sampleDataset);
    assert.deepEqual(malformed, []);
    assert.ok(rows.length >= 60, `${rows.length} rows`);
    assert.equal(new Set(rows.map((r) => r.title)).size, rows.length, "titles are unique");
  });

  it("names the path when the file cannot be read", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vectors-ds-"));
    await writeFile(join(dir, "present.txt"), "h|h|h\n");
    await assert.rejects(readDataset(join(dir, "absent.txt")), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(error.message, /absent\.txt/);
      return true;
    });
  });

  it("skips a line holding a NUL byte with its line number and keeps the other lines", async () => {
    const path = await fileOf(
      Buffer.from("title|author|summary\nA|a|one\nB|b|t\u0000wo\nC|c|three\n"),
    );
    const { rows, malformed } = await readDataset(path);
    assert.deepEqual(
      rows.map((r) => [r.line, r.title]),
      [
        [2, "A"],
        [4, "C"],
      ],
    );
    assert.deepEqual(malformed, [
      { line: 3, reason: "the summary holds a NUL byte, which text cannot store" },
    ]);
  });

  it("skips a line that is not valid UTF-8, naming the byte, and decodes its neighbours", async () => {
    const bytes = Buffer.concat([
      Buffer.from("title|author|summary\nCafé|a|crème brûlée \u{1F370}\nBad|b|ab"),
      Buffer.from([0xc3, 0x28]),
      Buffer.from("\nLiteral|c|a real \uFFFD replacement character\r\n"),
    ]);
    const { rows, malformed } = await readDataset(await fileOf(bytes));
    assert.deepEqual(
      rows.map((r) => [r.line, r.summary]),
      [
        [2, "crème brûlée \u{1F370}"],
        [4, "a real \uFFFD replacement character"],
      ],
    );
    assert.deepEqual(malformed, [
      { line: 3, reason: "not valid UTF-8 text (byte 0xc3 at byte 9 of the line)" },
    ]);
  });

  it("splits lines that span chunks, and a last line without a newline", async () => {
    async function* chunks() {
      yield Buffer.from("ab");
      yield Buffer.from("c\r\nd");
      yield Buffer.from("e\n\nf");
    }
    const lines: string[] = [];
    for await (const line of byteLines(chunks())) lines.push(line.toString());
    assert.deepEqual(lines, ["abc", "de", "", "f"]);
  });
});
