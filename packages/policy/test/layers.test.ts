/**
 * The layers of src/, lowest first, and a check that every import runs down (or stays inside
 * its own folder). ARCHITECTURE.md's policy section draws the same list.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * Each entry is one layer: a folder of src/ (its subfolders included) or a file at the root
 * of src/. Peers share a layer and may not import each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["errors.ts", "version.ts", "config.ts"],
  ["value"],
  ["lib"],
  ["ast"],
  ["syntax"],
  ["builtins"],
  ["compile"],
  ["eval"],
  ["trace", "partial", "format"],
  ["engine.ts"],
  ["bundle"],
  ["loader"],
  ["dependencies"],
  ["store"],
  ["plugins"],
  ["server"],
  ["cli"],
  ["index.ts"],
];

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Every non-test .ts file under src/, as a slash path relative to src/. */
function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      out.push(relative(SRC, path).split(sep).join("/"));
  }
  return out.sort();
}

/** The text with comments blanked out, strings kept (an import inside a comment is none). */
function withoutComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
      out += " ";
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Relative specifiers of static imports, `export … from` and dynamic `import()`. */
function relativeImports(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom|\bimport)\s*\(?\s*(["'])(\.{1,2}\/[^"']*)\1/g;
  for (const m of withoutComments(text).matchAll(pattern)) found.push(m[2] as string);
  return found;
}

/** The layer unit a src/ path belongs to: its top folder, or the file's own name at the root. */
function unitOf(path: string): string {
  return path.split("/")[0] as string;
}

const layerOf = new Map(LAYERS.flatMap((units, rank) => units.map((u) => [u, rank] as const)));

/** The src/ path an import specifier of `file` names (`.js` read as the `.ts` it is built from). */
function target(file: string, spec: string): string {
  return posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, ".ts");
}

describe("policy layers", () => {
  const files = sourceFiles();

  it("places every folder and root file of src/ in a layer", () => {
    const unplaced = [...new Set(files.map(unitOf))].filter((u) => !layerOf.has(u));
    assert.deepEqual(unplaced, [], "add these to LAYERS (and to ARCHITECTURE.md)");
  });

  it("has no import from a lower layer to a higher one, nor between peers", () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = unitOf(file);
      for (const spec of relativeImports(readFileSync(join(SRC, file), "utf8"))) {
        const to = unitOf(target(file, spec));
        if (to === from || to.startsWith("..")) continue;
        const a = layerOf.get(from);
        const b = layerOf.get(to);
        if (a === undefined || b === undefined || b < a) continue;
        const why = b === a ? "peer" : "upward";
        wrong.push(`${file} imports ${spec}: ${why}, ${from} (layer ${a}) → ${to} (layer ${b})`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("reads static, re-exported and dynamic imports, not those in comments", () => {
    const text = [
      'import { a } from "./a.js";',
      "import type {",
      "  B,",
      '} from "../b/b.js";',
      'export { c } from "./c.js";',
      'const d = await import("./d.js");',
      '// import { e } from "./e.js";',
      '/* export * from "./f.js"; */',
      'const url = "http://x/"; import "./g.js";',
    ].join("\n");
    assert.deepEqual(relativeImports(text), ["./a.js", "../b/b.js", "./c.js", "./d.js", "./g.js"]);
  });
});
