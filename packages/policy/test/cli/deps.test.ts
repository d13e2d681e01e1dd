/** `rego deps`: base and virtual documents of a query, as `opa deps` prints them. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

describe("rego deps", () => {
  const files = tempTree({
    "policy.rego": [
      "package policy",
      "",
      "allow if is_admin",
      "",
      'is_admin if "admin" in input.user.roles',
      "",
      "limit := data.limits[input.user.name]",
      "",
      "f(x) := y if y := data.table[x]",
      "",
      "g := f(1)",
      "",
      "unused := input.other",
      "",
    ].join("\n"),
    "bad.rego": "package bad\np := x\n",
  });
  after(() => files.remove());
  const policy = join(files.dir, "policy.rego");

  it("prints OPA's table of base and virtual documents", async () => {
    const run = await rego(["deps", "--data", policy, "data.policy.allow"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        "+------------------+----------------------+",
        "|  BASE DOCUMENTS  |  VIRTUAL DOCUMENTS   |",
        "+------------------+----------------------+",
        "| input.user.roles | data.policy.allow    |",
        "|                  | data.policy.is_admin |",
        "+------------------+----------------------+",
        "",
      ].join("\n"),
    );
  });

  it("cuts refs at computed keys and follows function calls", async () => {
    const limit = await rego(["deps", "-f", "json", "-d", policy, "data.policy.limit"]);
    const out = JSON.parse(limit.stdout) as { base: { value: string }[][]; virtual: unknown[] };
    assert.deepEqual(
      out.base.map((r) => r.map((t) => t.value)),
      [
        ["data", "limits"],
        ["input", "user", "name"],
      ],
    );
    const g = await rego(["deps", "-d", policy, "data.policy.g"]);
    assert.match(g.stdout, /\| data\.table +\| data\.policy\.f +\|/);
    assert.match(g.stdout, /\| +\| data\.policy\.g +\|/);
  });

  it("writes JSON with base and virtual arrays of OPA's AST terms", async () => {
    const run = await rego(["deps", "--format", "json", "-d", policy, "data.policy.allow"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      base: [
        [
          { type: "var", value: "input" },
          { type: "string", value: "user" },
          { type: "string", value: "roles" },
        ],
      ],
      virtual: [
        [
          { type: "var", value: "data" },
          { type: "string", value: "policy" },
          { type: "string", value: "allow" },
        ],
        [
          { type: "var", value: "data" },
          { type: "string", value: "policy" },
          { type: "string", value: "is_admin" },
        ],
      ],
    });
  });

  it("lists only base documents for a query on input, and a prefix once", async () => {
    const run = await rego(["deps", "input.a.b == input.a"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      "+----------------+\n| BASE DOCUMENTS |\n+----------------+\n| input.a        |\n+----------------+\n",
    );
    assert.equal((await rego(["deps", "-f", "json", "x := 1"])).stdout, "{}\n");
  });

  it("fails with exit 1 on policies that do not compile or a query that does not parse", async () => {
    const bad = await rego(["deps", "-d", join(files.dir, "bad.rego"), "data.bad.p"]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /rego_unsafe_var_error/);
    const query = await rego(["deps", "data.x ==="]);
    assert.equal(query.code, 1);
    assert.match(query.stderr, /rego_parse_error/);
    assert.equal((await rego(["deps"])).code, 2);
  });

  it("follows unification through rules into base and virtual documents (OPA's base-and-virtual case)", async () => {
    const tree = tempTree({
      "one.rego": 'package x\n\ny = "foo"\n\nz[x] = w if {\n\tw = x\n\tx = "bar"\n\ty = x\n}\n',
      "two.rego":
        'package a\n\nb = {"buz": "bar"}\n\nc[a] = e if {\n\te = data.d[_]\n\tdata.x.z[a] = e[2]\n}\n',
      "test.rego":
        'package test\n\np if {\n\tinput = x\n\tx = y\n\ty.z = "foo"\n}\n\nq if {\n\tinput.a = "bar"\n}\n',
    });
    try {
      const run = await rego(["deps", "-f", "json", "-d", tree.dir, "x = data.a.c[y]"]);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout) as Record<string, { value: string }[][]>;
      const text = (refs: { value: string }[][] | undefined) =>
        (refs ?? []).map((r) => r.map((t) => t.value).join("."));
      assert.deepEqual(text(out.base), ["data.d"]);
      assert.deepEqual(text(out.virtual), ["data.a.c", "data.x.y", "data.x.z"]);
      const p = JSON.parse(
        (await rego(["deps", "-f", "json", "-d", tree.dir, "data.test.p"])).stdout,
      );
      assert.deepEqual(text(p.base), ["input"]);
      assert.deepEqual(text(p.virtual), ["data.test.p"]);
    } finally {
      tree.remove();
    }
  });

  it("reads a var unified with a ref only where the var is used (OPA's dependency cases)", async () => {
    const cases: [string, string[]][] = [
      ["r if {\n\ttrue = a.y\n\ta = x\n}", ["data.a.x.y"]],
      ["r if {\n\ta = x\n\tb = data.a.y\n\ta = b\n}", ["data.a.x", "data.a.y"]],
      [
        'r if {\n\ta = x\n\tb = a.y\n\tc = b.z\n\td = c.a\n\te = d.b\n\te.c = "foo"\n}',
        ["data.a.x.y.z.a.b.c"],
      ],
    ];
    for (const [rule, want] of cases) {
      const tree = tempTree({
        "c.rego": `package a.b.c\nimport data.a.x\nimport data.a.y\n\n${rule}\n`,
      });
      try {
        const run = await rego(["deps", "-f", "json", "-d", tree.dir, "data.a.b.c.r"]);
        assert.equal(run.code, 0, run.stderr);
        const base = (JSON.parse(run.stdout).base as { value: string }[][]).map((r) =>
          r.map((t) => t.value).join("."),
        );
        assert.deepEqual(base, want, rule);
      } finally {
        tree.remove();
      }
    }
  });
});
