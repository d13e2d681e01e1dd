/** `rego fmt`: output, --list, --diff, --write, --fail, stdin, --v0-v1, exit codes as `opa fmt`. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const UGLY = "package a\nallow if {\n    input.x == 1\n}\n";
const PRETTY = "package a\n\nallow if {\n\tinput.x == 1\n}\n";
const ESC = String.fromCharCode(27);
const RED = `${ESC}[31m`;
const GREEN = `${ESC}[32m`;
const RESET = `${ESC}[0m`;

/** The diff text without the runs coloured `drop`, colours removed. */
function side(diff: string, drop: string): string {
  return diff
    .split(RESET)
    .map((chunk) => {
      const at = chunk.indexOf(ESC);
      if (at < 0) return chunk;
      const colored = chunk.slice(at);
      return chunk.slice(0, at) + (colored.startsWith(drop) ? "" : colored.slice(drop.length));
    })
    .join("");
}

describe("rego fmt", () => {
  const files = tempTree({
    "ugly.rego": UGLY,
    "pretty.rego": PRETTY,
    "dir/sub/ugly2.rego": UGLY,
    "dir/notes.txt": "not rego",
    "v0.rego": "package a\np[x] { x := 1 }\n",
    "bad.rego": "package a\np {\n",
  });
  after(() => files.remove());
  const f = (name: string) => join(files.dir, name);

  it("prints the formatted file on stdout", async () => {
    const run = await rego(["fmt", f("ugly.rego")]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, PRETTY);
    assert.equal(readFileSync(f("ugly.rego"), "utf8"), UGLY, "the file is left alone");
  });

  it("lists only the files whose formatting differs, walking directories", async () => {
    const run = await rego(["fmt", "--list", f("pretty.rego"), f("ugly.rego"), f("dir")]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${f("ugly.rego")}\n${f("dir/sub/ugly2.rego")}\n`);
  });

  it("exits 2 with --fail when a file would change, and 0 when none would", async () => {
    const changed = await rego(["fmt", "--fail", f("ugly.rego")]);
    assert.equal(changed.code, 2);
    assert.equal(changed.stdout, "");
    assert.equal(changed.stderr, "unexpected diff\n");
    const listed = await rego(["fmt", "--list", "--fail", f("ugly.rego")]);
    assert.equal(listed.code, 2);
    assert.equal(listed.stdout, `${f("ugly.rego")}\n`);
    const clean = await rego(["fmt", "--fail", f("pretty.rego")]);
    assert.equal(clean.code, 0);
    assert.equal(clean.stdout, PRETTY);
  });

  it("prints a coloured diff with --diff: deletions red, insertions green", async () => {
    const run = await rego(["fmt", "--diff", f("ugly.rego")]);
    assert.equal(run.code, 0);
    assert.ok(run.stdout.includes(`${GREEN}\t${RESET}`), run.stdout);
    assert.ok(run.stdout.includes(`${RED}    ${RESET}`), run.stdout);
    // Dropping the insertions gives the old text, dropping the deletions the new one.
    assert.equal(side(run.stdout, RED), `${PRETTY}\n`);
    assert.equal(side(run.stdout, GREEN), `${UGLY}\n`);
    assert.equal((await rego(["fmt", "--diff", f("pretty.rego")])).stdout, "");
  });

  it("rewrites files in place with --write", async () => {
    const dir = tempTree({ "x.rego": UGLY });
    try {
      const run = await rego(["fmt", "--write", join(dir.dir, "x.rego")]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "");
      assert.equal(readFileSync(join(dir.dir, "x.rego"), "utf8"), PRETTY);
    } finally {
      dir.remove();
    }
  });

  it("formats stdin without a path", async () => {
    const run = await rego(["fmt"], { stdin: UGLY });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, PRETTY);
  });

  it("rewrites Rego v0 to v1 with --v0-v1 and refuses v0 without it", async () => {
    const run = await rego(["fmt", "--v0-v1", f("v0.rego")]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "package a\n\nimport rego.v1\n\np contains x if x := 1\n");
    const refused = await rego(["fmt", f("v0.rego")]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^failed to format Rego source file: .*rego_parse_error/);
  });

  it("exits 2 on a file that does not parse and 1 on a missing path", async () => {
    const bad = await rego(["fmt", f("bad.rego")]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /bad\.rego:\d+: rego_parse_error/);
    const missing = await rego(["fmt", f("nope.rego")]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope\.rego/);
  });

  it("drops rego.v1 and future.keywords imports with --drop-v0-imports", async () => {
    const src =
      "package a\n\nimport data.x\nimport future.keywords.in\nimport rego.v1\n\np if 1 in [1]\n";
    const run = await rego(["fmt", "--drop-v0-imports"], { stdin: src });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "package a\n\nimport data.x\n\np if 1 in [1]\n");
    const kept = await rego(["fmt"], { stdin: src });
    assert.match(kept.stdout, /import future\.keywords\.in\nimport rego\.v1\n/);
  });
});
