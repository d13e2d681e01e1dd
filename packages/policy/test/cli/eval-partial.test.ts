/** `rego eval --partial`: flags, output formats and exit codes. */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const tree = tempTree({
  "filters.rego": `package filters

default allow := false

allow if input.resource.owner == input.user

visible if input.resource.owner == input.user
`,
  "input.json": '{"user": "bob"}',
});

after(() => tree.remove());

const policy = `${tree.dir}/filters.rego`;
const input = `${tree.dir}/input.json`;

/** `rego eval -d filters.rego <args>`. */
const evalFilters = (...args: string[]) => rego(["eval", "-d", policy, ...args]);

describe("rego eval --partial", () => {
  it("prints {partial: {queries}} as OPA's AST JSON", async () => {
    const r = await evalFilters("-p", "-u", "input.resource", "-i", input, "data.filters.visible");
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ["partial"]);
    assert.equal(out.partial.queries.length, 1);
    assert.deepEqual(out.partial.queries[0][0].terms[2], { type: "string", value: "bob" });
    assert.equal(out.partial.support, undefined);
    assert.ok(r.stdout.endsWith("}\n"));
  });

  it("prints the pretty table with support modules", async () => {
    const r = await evalFilters("--partial", "-f", "pretty", "data.filters.allow = x");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\+-+\+-+\+\n\| Query 1 +\| data\.partial\.filters\.allow = x +\|\n/);
    assert.match(r.stdout, /\| Support 1 \| package partial\.filters +\|/);
    assert.match(r.stdout, /\| +\| default allow := false +\|/);
  });

  it("takes --unknowns more than once", async () => {
    const r = await evalFilters(
      "-p",
      "-f",
      "pretty",
      "--unknowns",
      "input.resource",
      "--unknowns",
      "input.user",
      "-i",
      input,
      "data.filters.visible",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /input\.resource\.owner == input\.user/);
  });

  it("does not inline rules named by --disable-inlining", async () => {
    const r = await evalFilters(
      "-p",
      "-f",
      "pretty",
      "--disable-inlining",
      "data.filters.visible",
      "data.filters.visible",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Query 1 +\| data\.partial\.filters\.visible /);
    assert.match(r.stdout, /visible if \{/);
  });

  it("prints {partial: {}} when the query never holds, and --fail exits 1", async () => {
    const r = await evalFilters("-p", "1 == 2");
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.stdout), { partial: {} });
    const failing = await evalFilters("-p", "--fail", "1 == 2");
    assert.equal(failing.code, 1);
    const defined = await evalFilters("-p", "--fail-defined", "input.x == 1");
    assert.equal(defined.code, 1);
  });

  it("prints queries and support modules as Rego source with -f source", async () => {
    const r = await evalFilters("-p", "-f", "source", "data.filters.allow = x");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "# Query 1\ndata.partial.filters.allow = x\n\n# Module 1\npackage partial.filters\n\nallow if {\n\tinput.resource.owner == input.user\n}\n\ndefault allow := false\n",
    );
  });

  it("prints undefined in the pretty format when no query can hold", async () => {
    const r = await evalFilters("-p", "-f", "pretty", "1 == 2");
    assert.equal(r.stdout, "undefined\n");
  });

  it("refuses formats other than json, pretty and source", async () => {
    const r = await evalFilters("-p", "-f", "values", "data.filters.allow");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--partial prints json, pretty or source only \(not values\)/);
    const source = await evalFilters("-f", "source", "data.filters.allow");
    assert.equal(source.code, 2);
    assert.match(source.stderr, /the source format is only valid with --partial/);
  });

  it("keeps nondeterministic calls unless --nondeterminstic-builtins (OPA's spelling)", async () => {
    const kept = await evalFilters("-p", "-f", "pretty", "time.now_ns(x)");
    assert.match(kept.stdout, /\| Query 1 \| time\.now_ns\(x\) \|/);
    const flag = ["-p", "-f", "pretty", "--nondeterminstic-builtins"];
    const evaluated = await evalFilters(...flag, "time.now_ns(x)");
    assert.match(evaluated.stdout, /\| Query 1 \| x = \d+ +\|/);
  });

  it("refuses --unknowns and --disable-inlining without --partial", async () => {
    const r = await evalFilters("-u", "input.x", "data.filters.allow");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--unknowns and --disable-inlining need --partial/);
    const d = await evalFilters("--disable-inlining", "data.x", "true");
    assert.equal(d.code, 2);
  });

  it("reports a bad unknown as an error", async () => {
    const r = await evalFilters("-p", "-u", "1 +", "data.filters.allow");
    assert.equal(r.code, 2);
    assert.match(r.stdout, /rego_parse_error/);
  });
});
