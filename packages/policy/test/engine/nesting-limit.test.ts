/**
 * The nesting limit: input nested deeper than the documented limit is a rego_parse_error
 * with a location and a message naming the limit, from the parser, the engine, the CLI and
 * the server alike, never a RangeError. Input just within the limit still works.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { RegoErrorList } from "../../src/errors.js";
import { parseModule, parseQuery } from "../../src/syntax/module-parser.js";
import { maxNesting } from "../../src/syntax/nesting.js";
import { rego } from "../cli/cli-harness.js";
import { EXAMPLES_DIR } from "../fixtures.js";
import { type Harness, startHarness } from "../server/server-harness.js";
import { thrown } from "./helpers.js";

const limitMessage = new RegExp(`nested.*more than ${maxNesting} levels.*nesting limit`);

/** The single parse error `f` throws; fails on anything else (a RangeError above all). */
function nestingError(f: () => unknown): { row: number; col: number } {
  const e = thrown(f);
  assert.ok(e instanceof RegoErrorList, `expected RegoErrorList, got ${e.name}: ${e.message}`);
  const first = e.errors[0];
  assert.equal(first?.code, "rego_parse_error");
  assert.match(first?.message ?? "", limitMessage);
  assert.ok(first?.location, "the error has a location");
  return { row: first.location.row, col: first.location.col };
}

test("the nesting limit is the documented 1000 levels", () => {
  assert.equal(maxNesting, 1000);
});

test("100,000 parentheses are a parse error at the first one past the limit", () => {
  const q = `x := ${"(".repeat(100_000)}1${")".repeat(100_000)}`;
  const at = nestingError(() => parseQuery(q));
  assert.deepEqual(at, { row: 1, col: "x := ".length + maxNesting + 1 });
});

test("arrays nested 50,000 deep in a module are a parse error with the module's name", () => {
  const src = `package deep\n\np := ${"[".repeat(50_000)}1${"]".repeat(50_000)}\n`;
  const e = thrown(() => parseModule("deep.rego", src));
  assert.ok(e instanceof RegoErrorList);
  assert.match(e.message, /^deep\.rego:3: rego_parse_error: too deeply nested/);
});

test("every kind of deep nesting is refused the same way", () => {
  const n = 5000;
  const sources = {
    objects: `${'{"a": '.repeat(n)}1${"}".repeat(n)}`,
    sets: `${"{".repeat(n)}1${"}".repeat(n)}`,
    calls: `${"abs(".repeat(n)}1${")".repeat(n)}`,
    "unary minus": `${"- ".repeat(n)}1`,
    "an operator chain": Array.from({ length: n }, () => "1").join(" + "),
    "a long ref": `input${".a".repeat(n)}`,
    "ref brackets": `input${'["a"]'.repeat(n)}`,
    comprehensions: `${"[x | x := ".repeat(n)}1${"]".repeat(n)}`,
  };
  for (const [what, term] of Object.entries(sources)) {
    const at = nestingError(() => parseQuery(`y := ${term}`));
    assert.equal(at.row, 1, what);
  }
});

test("deep template strings and else chains are refused too", () => {
  let tmpl = "1";
  for (let i = 0; i < maxNesting + 5; i++) tmpl = `$"{${tmpl}}"`;
  nestingError(() => parseQuery(`y := ${tmpl}`));
  const elses = Array.from({ length: maxNesting + 5 }, (_, i) => `else := ${i} if false`);
  const src = `package e\n\np := 0 if false\n${elses.join("\n")}\n`;
  nestingError(() => parseModule("e.rego", src));
});

// Each template level used to read the whole of its contents again: 600 levels around a
// 1 MB string took 23 s, around 4 MB minutes. The timeout is only a backstop for that.
test("templates nested 600 deep around a 4 MB string parse", { timeout: 60_000 }, () => {
  let tmpl = `"${"a".repeat(4_000_000)}"`;
  for (let i = 0; i < 600; i++) tmpl = `$"{${tmpl}}"`;
  const [e] = parseQuery(`x := ${tmpl}`);
  assert.ok(e?.type === "term" && e.term.type === "call");
  assert.equal(e.term.args[1]?.type, "template");
});

test("a package path longer than the limit is a parse error", () => {
  nestingError(() => parseModule("p.rego", `package ${Array(5000).fill("a").join(".")}\n`));
});

test("nesting just within the limit parses, compiles and evaluates", () => {
  const depth = maxNesting - 10;
  const e = new PolicyEngine();
  const [r] = e.query(`y := ${"[".repeat(depth)}7${"]".repeat(depth)}`);
  let v = r?.bindings.get("y");
  for (let i = 0; i < depth; i++) {
    assert.ok(Array.isArray(v), `level ${i} is an array`);
    v = v[0];
  }
  assert.equal(v, 7);
  const [s] = e.query(`y := ${"(".repeat(depth)}1 + 2${")".repeat(depth)}`);
  assert.equal(s?.bindings.get("y"), 3);
});

test("the CLI reports deep nesting like any parse error (exit 2)", async () => {
  const run = await rego([
    "eval",
    "--format",
    "pretty",
    `${"[".repeat(50_000)}${"]".repeat(50_000)}`,
  ]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /rego_parse_error: too deeply nested: more than 1000 levels/);
  assert.doesNotMatch(run.stderr, /RangeError/);
});

describe("the server and deep nesting", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness([EXAMPLES_DIR]);
  });
  after(async () => {
    await h.server.close(1000);
  });

  test("a deeply nested query is 400 with the parse error, and the server still answers", async () => {
    const query = `x := ${"(".repeat(100_000)}1${")".repeat(100_000)}`;
    const res = await h.post("/v1/query", JSON.stringify({ query }));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { errors: { code: string; message: string }[] };
    assert.equal(body.errors[0]?.code, "rego_parse_error");
    assert.match(body.errors[0]?.message ?? "", limitMessage);
    const health = await h.get("/health");
    assert.equal(health.status, 200);
  });
});
