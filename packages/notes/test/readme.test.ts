import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { configTable } from "../src/config.js";

const README = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");

describe("the README's configuration table", () => {
  it("has one row per variable of config.ts, with the same meaning and default", () => {
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
