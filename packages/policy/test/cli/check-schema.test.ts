/**
 * `rego check -s` and `rego eval -s`: JSON Schemas typing `input` (a file) or the documents
 * METADATA `schemas:` annotations name (a directory), with OPA's `undefined ref` errors.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const tree = tempTree({});
after(() => tree.remove());

const inputSchema = {
  type: "object",
  properties: {
    user: {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer" } },
      required: ["name"],
    },
    roles: { type: "array", items: { $ref: "#/definitions/role" } },
    tags: { type: "object", additionalProperties: { type: "string" } },
  },
  definitions: { role: { type: "object", properties: { id: { type: "string" } } } },
};

function write(name: string, text: string): string {
  const path = join(tree.dir, name);
  writeFileSync(path, text);
  return path;
}

const schemaFile = write("input-schema.json", JSON.stringify(inputSchema));

/** Runs `rego check -s <schema> <policy>` and returns its stderr with the dir cut off. */
async function check(policy: string, schema: string = schemaFile, flags: string[] = []) {
  const file = write("p.rego", policy);
  const run = await rego(["check", "-s", schema, ...flags, file]);
  return { ...run, stderr: run.stderr.replaceAll(`${tree.dir}/`, "") };
}

describe("rego check -s <file>: the schema of input", () => {
  it("reports a key the schema does not have, with OPA's detail lines", async () => {
    const run = await check('package p\n\nallow if {\n\tinput.user.nam == "x"\n}\n');
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      [
        "1 error occurred: p.rego:4: rego_type_error: undefined ref: input.user.nam",
        "\tinput.user.nam",
        "\t           ^",
        '\t           have: "nam"',
        '\t           want (one of): ["age" "name"]',
        "",
      ].join("\n"),
    );
  });

  it("follows $ref and array items; keys under any-keyed objects are not checked", async () => {
    const ok = await check(
      'package p\n\nallow if input.roles[_].id == "a"\ntag if input.tags.anything == "x"\n',
    );
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await check('package p\n\nallow if input.roles[0].ids == "a"\n');
    assert.match(bad.stderr, /undefined ref: input\.roles\[0\]\.ids\n/);
    assert.match(bad.stderr, /want \(one of\): \["id"\]/);
  });

  it("types operands: a number where a builtin wants a string, unifying with a string", async () => {
    const run = await check(
      'package p\n\nup if upper(input.user.age)\nage if input.user.age = "x"\ncmp if input.user.age == "x"\n',
    );
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /p\.rego:3: rego_type_error: upper: invalid argument\(s\)\n\thave: \(number\)/,
    );
    assert.match(run.stderr, /p\.rego:4: rego_type_error: match error/);
    // `==` takes any operands in OPA's declaration: no error for line 5.
    assert.doesNotMatch(run.stderr, /p\.rego:5/);
  });

  it("changes nothing without a schema", async () => {
    const file = write(
      "p.rego",
      'package p\n\nallow if input.user.nam == "x"\nup if upper(input.age)\n',
    );
    const run = await rego(["check", file]);
    assert.equal(run.code, 0, run.stderr);
  });

  it("names the schema file that cannot be read or used", async () => {
    const bad = write("bad.json", "{not json");
    const run = await check("package p\n\nallow := true\n", bad);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^1 error occurred during loading: bad\.json: /);
    const missing = await check("package p\n\nallow := true\n", join(tree.dir, "nosuch.json"));
    assert.match(missing.stderr, /nosuch\.json: no such file or directory/);
    const merge = write(
      "merge.json",
      JSON.stringify({ allOf: [{ type: "string" }, { type: "object", properties: {} }] }),
    );
    const run2 = await check("package p\n\nallow := true\n", merge);
    assert.match(run2.stderr, /merge\.json: unable to merge these schemas/);
  });
});

describe("rego check -s <dir>: schemas for METADATA annotations", () => {
  const dir = join(tree.dir, "schemas");
  mkdirSync(join(dir, "k8s"), { recursive: true });
  writeFileSync(join(dir, "input.json"), JSON.stringify(inputSchema));
  writeFileSync(
    join(dir, "k8s", "cfg.json"),
    JSON.stringify({ type: "object", properties: { limit: { type: "number" } } }),
  );
  const policy = [
    "package q",
    "",
    "# METADATA",
    "# schemas:",
    "#   - input: schema.input",
    '#   - data.cfg: schema["k8s"]["cfg"]',
    "allow if {",
    '\tinput.user.nam == "x"',
    "\tdata.cfg.limt > 1",
    "}",
    "",
    "other if input.anything",
    "",
  ].join("\n");

  it("types input and data for the annotated rule only", async () => {
    const run = await check(policy, dir);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^2 errors occurred:\n/);
    assert.match(run.stderr, /p\.rego:8: rego_type_error: undefined ref: input\.user\.nam\n/);
    assert.match(run.stderr, /p\.rego:9: rego_type_error: undefined ref: data\.cfg\.limt\n/);
    assert.match(run.stderr, /want \(one of\): \["limit"\]/);
  });

  it("reports an annotation naming a schema the directory lacks", async () => {
    const run = await check(
      "package q\n\n# METADATA\n# schemas:\n#   - input: schema.nope\nallow if input.x\n",
      dir,
    );
    assert.match(run.stderr, /rego_type_error: undefined schema: schema\.nope/);
  });
});

describe("rego eval -s", () => {
  it("type-checks the policies before evaluating", async () => {
    const file = write("e.rego", 'package e\n\nallow if input.user.nam == "x"\n');
    const run = await rego(["eval", "-s", schemaFile, "-d", file, "data.e.allow"]);
    assert.equal(run.code, 2);
    assert.match(run.stdout + run.stderr, /undefined ref: input\.user\.nam/);
    const fine = write("f.rego", 'package f\n\nallow if input.user.name == "x"\n');
    const ok = await rego(["eval", "-s", schemaFile, "-d", fine, "data.f.allow"]);
    assert.equal(ok.code, 0, ok.stderr);
  });
});

describe("rego test -s <file>", () => {
  it("type-checks the tests' policies against the schema of input", async () => {
    const policy = write(
      "t_test.rego",
      'package t\n\nallow if input.user.nam == "x"\n\ntest_allow if allow with input as {"user": {"nam": "x"}}\n',
    );
    const plain = await rego(["test", policy]);
    assert.equal(plain.code, 0, plain.stderr);
    const run = await rego(["test", "-s", schemaFile, policy]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /rego_type_error: undefined ref: input\.user\.nam/);
  });

  it("names a schema file that is not JSON", async () => {
    const policy = write("u_test.rego", "package u\n\ntest_x if true\n");
    const bad = write("bad-schema.json", "{ not json");
    const run = await rego(["test", "-s", bad, policy]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /bad-schema\.json/);
  });
});
