/** `rego parse`: OPA's pretty view and AST JSON encoding, as `opa parse` prints them. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

describe("rego parse", () => {
  const files = tempTree({
    "x.rego": "package x\n\np = 1\n",
    "refs.rego": "package x\n\na.b.c := true\n",
    "more.rego": [
      "package x",
      "import rego.v1",
      "# hi",
      "f(a) := y if { y := a + 1; not a == 2 }",
      "r contains x if some x in [1]",
      "s if every v in [1] { v }",
      "t := 1.50 if true",
      'u := {3, "a", 1}',
      "",
    ].join("\n"),
    "bad.rego": "???",
    "rules.rego":
      'package x\nimport rego.v1\n\ndefault allow = false\nallow = true if {\n  input.method == "GET"\n}\n',
  });
  after(() => files.remove());
  const f = (name: string) => join(files.dir, name);

  it("prints OPA's pretty tree by default", async () => {
    const run = await rego(["parse", f("x.rego")]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        "module",
        " package",
        "  ref",
        "   data",
        '   "x"',
        " rule",
        "  head",
        "   ref",
        "    p",
        "   1",
        "  body",
        "   expr index=0",
        "    true",
        "",
      ].join("\n"),
    );
  });

  it("prints OPA's AST JSON with --format json", async () => {
    const run = await rego(["parse", "--format", "json", f("x.rego")]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      package: {
        path: [
          { type: "var", value: "data" },
          { type: "string", value: "x" },
        ],
      },
      rules: [
        {
          body: [{ index: 0, terms: { type: "boolean", value: true } }],
          head: {
            name: "p",
            value: { type: "number", value: 1 },
            ref: [{ type: "var", value: "p" }],
          },
        },
      ],
    });
    assert.match(run.stdout, /^\{\n {2}"package": \{\n {4}"path": \[/);
  });

  it("writes ref heads without a name, and assign", async () => {
    const out = JSON.parse((await rego(["parse", "-f", "json", f("refs.rego")])).stdout);
    assert.deepEqual(out.rules[0].head, {
      value: { type: "boolean", value: true },
      assign: true,
      ref: [
        { type: "var", value: "a" },
        { type: "string", value: "b" },
        { type: "string", value: "c" },
      ],
    });
  });

  it("encodes calls, some-in, every, negation, comments and numbers as written", async () => {
    const run = await rego(["parse", "-f", "json", f("more.rego")]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    const [fn, r, s, t] = out.rules;
    assert.deepEqual(fn.head.args, [{ type: "var", value: "a" }]);
    assert.deepEqual(fn.body[0].terms[0], {
      type: "ref",
      value: [{ type: "var", value: "assign" }],
    });
    assert.equal(fn.body[0].terms[2].type, "call");
    assert.equal(fn.body[1].negated, true);
    assert.deepEqual(r.head.key, { type: "var", value: "x" });
    assert.equal(r.head.value, undefined);
    assert.equal(r.body[0].terms.symbols[0].value[0].value[1].value, "member_2");
    assert.equal(s.body[0].terms.key, null);
    assert.deepEqual(Object.keys(s.body[0].terms), ["body", "domain", "key", "value"]);
    assert.match(run.stdout, /"value": 1\.50\n/);
    assert.equal(t.head.value.type, "number");
    assert.deepEqual(
      out.rules[4].head.value.value.map((x: { value: unknown }) => x.value),
      [1, 3, "a"],
    );
    assert.deepEqual(out.comments, [
      {
        Text: Buffer.from(" hi").toString("base64"),
        Location: { file: f("more.rego"), row: 3, col: 1 },
      },
    ]);
    const noComments = JSON.parse(
      (await rego(["parse", "-f", "json", "--json-include=-comments", f("more.rego")])).stdout,
    );
    assert.equal(noComments.comments, undefined);
  });

  it("adds locations with their text only when asked", async () => {
    const plain = await rego(["parse", "-f", "json", f("x.rego")]);
    assert.doesNotMatch(plain.stdout, /location/);
    const run = await rego(["parse", "-f", "json", "--json-include", "locations", f("x.rego")]);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(out.package.location, {
      file: f("x.rego"),
      row: 1,
      col: 1,
      text: Buffer.from("package").toString("base64"),
    });
    assert.deepEqual(out.package.path[1].location, {
      file: f("x.rego"),
      row: 1,
      col: 9,
      text: Buffer.from("x").toString("base64"),
    });
    assert.equal(out.rules[0].head.value.location.col, 5);
  });

  it("reports parse errors as OPA's JSON error document and exits 1", async () => {
    const run = await rego(["parse", f("bad.rego")]);
    assert.equal(run.code, 1);
    assert.equal(JSON.parse(run.stderr).errors[0].code, "rego_parse_error");
  });

  it("locates operators at their token, default rules at their keyword, heads without bodies", async () => {
    const run = await rego(["parse", "-f", "json", "--json-include", "locations", f("rules.rego")]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    const at = (node: { location: { row: number; col: number; text: string } }) => [
      node.location.row,
      node.location.col,
      Buffer.from(node.location.text, "base64").toString(),
    ];
    const [dflt, allow] = out.rules;
    assert.deepEqual(at(out.imports[0]), [2, 1, "import"]);
    assert.deepEqual(at(dflt), [4, 1, "default"]);
    assert.deepEqual(at(dflt.head), [4, 9, "allow = false"]);
    assert.deepEqual(at(dflt.body[0]), [4, 1, "default"]);
    assert.deepEqual(at(allow.head), [5, 1, "allow = true"]);
    assert.deepEqual(at(allow.body[0]), [6, 3, 'input.method == "GET"']);
    assert.deepEqual(at(allow.body[0].terms[0]), [6, 16, "=="]);
    assert.deepEqual(at(allow.body[0].terms[0].value[0]), [6, 16, "=="]);
  });
});
