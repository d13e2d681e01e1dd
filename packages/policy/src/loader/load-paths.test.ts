import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { toJSON } from "../value/value.js";
import { LoadError } from "./load-error.js";
import { loadPaths } from "./load-paths.js";

const root = mkdtempSync(join(tmpdir(), "rego-loader-"));
after(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof LoadError, String(e));
    return e.problems;
  }
  return assert.fail("expected a LoadError");
}

describe("loadPaths", () => {
  it("merges data files at their directory's path and finds policies recursively", () => {
    const dir = tree("basic", {
      "data.json": '{"top": true}',
      "a/b/data.json": '{"k": 1}',
      "a/data.yaml": "y: [1, 2]\n",
      "a/other.json": '{"also": true}',
      "p/x.rego": "package x\n",
      "p/q/y.rego": "package y\n",
      "notes.txt": "not loaded",
    });
    const loaded = loadPaths([dir]);
    assert.deepEqual(toJSON(loaded.data), {
      top: true,
      a: { b: { k: 1 }, y: [1, 2], also: true },
    });
    assert.deepEqual(
      loaded.modules.map((m) => m.file.slice(dir.length + 1)),
      ["p/q/y.rego", "p/x.rego"],
    );
  });

  it("merges any .json/.yaml/.yml file of a directory, not only data.*, as OPA's loader", () => {
    // conftest's examples/data: `-d exclusions` holds services.yaml with a top-level key.
    const dir = tree("any-name", {
      "exclusions/services.yaml": "services:\n  ports: [22, 21]\n",
      "exclusions/nested/limits.yml": "max: 3\n",
      "exclusions/README.md": "not data",
    });
    const loaded = loadPaths([join(dir, "exclusions")]);
    assert.deepEqual(toJSON(loaded.data), { services: { ports: [22, 21] }, nested: { max: 3 } });
  });

  it("reports two files of one directory that set the same key differently", () => {
    const dir = tree("any-name-clash", { "a.json": '{"k": 1}', "b.json": '{"k": 2}' });
    const problems = problemsOf(() => loadPaths([dir]));
    assert.ok(
      problems.some((p) => p.includes("b.json")),
      problems.join("\n"),
    );
  });

  it("merges a data file named directly at the root, and keeps big integers exact", () => {
    const dir = tree("direct", { "input.json": '{"n": 123456789012345678901}' });
    const loaded = loadPaths([join(dir, "input.json")]);
    assert.equal(loaded.data.get("n"), 123456789012345678901n);
  });

  it("reads a file once when a directory is named inside another", () => {
    const dir = tree("twice", { "data.json": '{"a": 1}', "policies/p.rego": "package p\n" });
    const loaded = loadPaths([dir, join(dir, "policies")]);
    assert.equal(loaded.modules.length, 1);
  });

  it("reports every problem together", () => {
    const dir = tree("bad", {
      "one/data.json": "{nope",
      "two/data.json": "[1]",
      "x/data.json": '{"k": 1}',
      "data.json": '{"x": {"k": 2}}',
    });
    const array = tree("array", { "list.json": "[1]" });
    const problems = problemsOf(() =>
      loadPaths([dir, join(root, "missing"), join(array, "list.json")]),
    );
    assert.ok(problems.some((p) => p.includes("missing: no such file or directory")));
    assert.ok(problems.some((p) => p.includes("one/data.json")));
    assert.ok(problems.some((p) => p.includes("merge error: conflicting values at data.x.k")));
    assert.ok(problems.some((p) => p.includes("unsupported document type")));
  });

  it("reports a broken symbolic link instead of crashing", () => {
    const dir = tree("links", { "ok.rego": "package ok\n" });
    symlinkSync(join(dir, "missing.rego"), join(dir, "dangling.rego"));
    const problems = problemsOf(() => loadPaths([dir]));
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? "", /dangling\.rego/);
  });

  it("refuses files of unknown kinds named directly", () => {
    const dir = tree("kinds", { "readme.md": "# hi" });
    const problems = problemsOf(() => loadPaths([join(dir, "readme.md")]));
    assert.match(problems[0] ?? "", /unsupported file type/);
  });
});

describe("loadPaths with ignore patterns", () => {
  const dir = tree("ignoring", {
    "p.rego": "package p\n",
    "p_gen.rego": "package gen\n",
    "vendor/v.rego": "package v\n",
    "vendor/data.json": '{"v": 1}',
    "sub/vendor.rego": "package sub\n",
    "sub/q_gen.rego": "package q\n",
  });

  it("skips files and directories (with their contents) whose names match", () => {
    const files = loadPaths([dir], { ignore: ["vendor", "*_gen.rego"] });
    assert.deepEqual(
      files.modules.map((m) => m.file),
      [join(dir, "p.rego"), join(dir, "sub/vendor.rego")],
    );
    assert.deepEqual(toJSON(files.data), {});
  });

  it("never ignores a path named on the command line", () => {
    const files = loadPaths([join(dir, "p_gen.rego"), join(dir, "vendor")], {
      ignore: ["*_gen.rego", "vendor"],
    });
    assert.deepEqual(
      files.modules.map((m) => m.file),
      [join(dir, "p_gen.rego"), join(dir, "vendor/v.rego")],
    );
  });
});
