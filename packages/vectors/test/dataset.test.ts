import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { sampleDataset } from "../src/config.js";
import { DatasetError } from "../src/errors.js";
import { parseDataset, readDataset } from "../src/loader/dataset.js";

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
});
