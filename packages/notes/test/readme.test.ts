import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { configTable } from "../src/config.js";

// The configuration table lives in the repository's root README, in the notes section.
const rootReadme = readFileSync(
  fileURLToPath(new URL("../../../../README.md", import.meta.url)),
  "utf8",
);
const notesSection = rootReadme.slice(rootReadme.indexOf("## D. Notes web application"));
const README = notesSection.slice(0, notesSection.indexOf("\n## ", 1));

describe("the README's configuration table", () => {
  it("has one row per variable of config.ts, with the same meaning and default", () => {
    assert.ok(README.includes("### Configuration"), "the root README has a notes section");
    for (const variable of configTable) {
      const row = README.split("\n").find((line) => line.startsWith(`| \`${variable.name}\` |`));
      assert.ok(row, `README lacks a row for ${variable.name}`);
      const [, meaning, fallback] = row.split(" | ");
      assert.equal(meaning, variable.meaning, variable.name);
      assert.equal(
        fallback?.replace(/ \|$/, "").replaceAll("`", ""),
        variable.default,
        variable.name,
      );
    }
  });
});
