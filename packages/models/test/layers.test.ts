// The source layers of models: every src file imports only from its own layer or lower ones.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * The layers, lowest first (ARCHITECTURE.md draws the same list). A unit is a folder under
 * src/ (`gguf/`) or a file at its root (`config.ts`; a root test file belongs to the file it
 * tests). A file may import from units of its own layer or of a lower one, never from a
 * higher one, and every src file must sit in a listed unit.
 */
export const LAYERS: readonly (readonly string[])[] = [
  [
    "api/",
    "async-lock.ts",
    "batch-window.ts",
    "config.ts",
    "config-env.ts",
    "config-variables.ts",
    "duration.ts",
    "errors.ts",
    "host-address.ts",
    "logger.ts",
    "origin-patterns.ts",
    "template-index.ts",
  ],
  ["gguf/"],
  ["template/"],
  ["store/"],
  ["modelfile/", "registry/", "demo/", "media/"],
  ["runtime/"],
  ["service/"],
  ["openai/"],
  ["http/"],
  ["server.ts"],
  ["cli/"],
  ["index.ts"],
];

/** The unit of a path relative to src/ (POSIX separators). */
export function unitOf(path: string): string {
  const slash = path.indexOf("/");
  return slash >= 0 ? path.slice(0, slash + 1) : path.replace(/\.test\.ts$/, ".ts");
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((layer) => layer.includes(unit));
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\bfrom\s*["']([^"']+)["']/g,
  /^\s*import\s*["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\bnew URL\(\s*["'](\.[^"']*)["']\s*,\s*import\.meta\.url\s*\)/g,
];

/** Module specifiers of a source: static imports and re-exports, import(), new URL(…). */
export function importsOf(source: string): string[] {
  return IMPORT_PATTERNS.flatMap((pattern) =>
    Array.from(source.matchAll(pattern), (m) => m[1] as string),
  );
}

/** Problems of one file (path relative to src/): a unit not listed, or an upward import. */
export function layerProblems(path: string, source: string): string[] {
  const unit = unitOf(path);
  const layer = layerOf(unit);
  if (layer < 0) return [`${path}: ${unit} is in no layer`];
  const problems: string[] = [];
  for (const spec of importsOf(source)) {
    if (!spec.startsWith(".")) continue;
    const target = posix.normalize(posix.join(posix.dirname(path), spec));
    if (target.startsWith("../")) {
      problems.push(`${path}: imports "${spec}", outside src/`);
      continue;
    }
    const targetUnit = unitOf(target.replace(/\.js$/, ".ts"));
    const targetLayer = layerOf(targetUnit);
    if (targetLayer < 0)
      problems.push(`${path}: imports "${spec}" from ${targetUnit}, in no layer`);
    else if (targetLayer > layer)
      problems.push(`${path}: imports "${spec}" from ${targetUnit}, a higher layer than ${unit}`);
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

// Compiled to dist/test/; the sources are two folders up.
const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

describe("source layers", () => {
  it("every src file imports only from its own layer or lower ones", () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 100, `found only ${files.length} files under ${SRC}`);
    const problems = files.flatMap((file) =>
      layerProblems(relative(SRC, file).split(sep).join("/"), readFileSync(file, "utf8")),
    );
    assert.deepEqual(problems, []);
  });

  it("reads static, type-only, re-export, side-effect and dynamic imports", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type {\n  B,\n  C,\n} from "../b/c.js";',
      'export { d } from "./d.js";',
      'export * from "./e.js";',
      'import "./f.js";',
      'const g = await import("./g.js");',
      'const h = new URL("./h.js", import.meta.url);',
      'import { readFileSync } from "node:fs";',
    ].join("\n");
    assert.deepEqual(
      importsOf(source).sort(),
      ["../b/c.js", "./a.js", "./d.js", "./e.js", "./f.js", "./g.js", "./h.js", "node:fs"].sort(),
    );
  });

  it("names the file and the import that reaches a higher layer", () => {
    assert.deepEqual(layerProblems("store/x.ts", 'import { app } from "../http/app.js";'), [
      'store/x.ts: imports "../http/app.js" from http/, a higher layer than store/',
    ]);
    assert.deepEqual(layerProblems("config.ts", 'const m = await import("./server.js");'), [
      'config.ts: imports "./server.js" from server.ts, a higher layer than config.ts',
    ]);
  });

  it("accepts imports from the same layer or a lower one", () => {
    const source =
      'import "./model-name.js";\nimport "../gguf/gguf-reader.js";\nimport "../errors.js";';
    assert.deepEqual(layerProblems("store/model-store.ts", source), []);
    assert.deepEqual(layerProblems("template/x.ts", 'import "../template/go-template.js";'), []);
  });

  it("refuses a file or an import target in no layer, and paths outside src/", () => {
    assert.deepEqual(layerProblems("extra/x.ts", ""), ["extra/x.ts: extra/ is in no layer"]);
    assert.deepEqual(layerProblems("helpers.ts", ""), ["helpers.ts: helpers.ts is in no layer"]);
    assert.deepEqual(layerProblems("store/x.ts", 'import "../extra/y.js";'), [
      'store/x.ts: imports "../extra/y.js" from extra/, in no layer',
    ]);
    assert.deepEqual(layerProblems("store/x.ts", 'import "../../test/harness.js";'), [
      'store/x.ts: imports "../../test/harness.js", outside src/',
    ]);
  });
});
