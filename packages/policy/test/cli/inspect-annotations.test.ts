/** `rego inspect -a`: the ANNOTATIONS section and the `annotations` JSON of `opa inspect -a`. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "an/authz.rego": `# METADATA
# title: Authorization
# description: Decides who may do what.
# authors:
# - Jane Doe <jane@example.com>
# - <ops@example.com>
# organizations:
# - Acme
package authz

# METADATA
# description: no title here
# schemas:
# - input: schema.input
deny contains "x" if false

# METADATA
# title: Allow
# entrypoint: true
# custom:
#   tags: [a, b]
#   severity: high
# related_resources:
# - ref: https://example.com/docs
#   description: the docs
allow if input.user == "admin"
`,
  "plain/p.rego": "package p\n\nx := 1\n",
});

// Relative file names, as a user would type them.
const cwd = process.cwd();
before(() => process.chdir(files.dir));
after(() => {
  process.chdir(cwd);
  files.remove();
});

const NAMESPACES = `NAMESPACES:
+------------+---------------+
| NAMESPACE  | FILE          |
+------------+---------------+
| data.authz | an/authz.rego |
+------------+---------------+
`;

describe("rego inspect -a", () => {
  it("prints each annotation, sorted by the path it applies to", async () => {
    const run = await rego(["inspect", "-a", "an"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      `${NAMESPACES}ANNOTATIONS:
Authorization
=============

Decides who may do what.

Package:  authz
Location: an/authz.rego:9
Scope: package

Organizations:
 Acme

Authors:
 Jane Doe <jane@example.com>
 <ops@example.com>

Allow
=====

Package:  authz
Rule:     allow
Location: an/authz.rego:26
Scope: document
Entrypoint: true

Related Resources:
 https://example.com/docs the docs

Custom:
 severity: "high"
 tags:     ["a","b"]

authz.deny
==========

no title here

Package:  authz
Rule:     deny
Location: an/authz.rego:15
Scope: rule

Schemas:
 input: schema.input

`,
    );
  });

  it("without -a, or without annotations, prints no ANNOTATIONS section", async () => {
    assert.equal((await rego(["inspect", "an"])).stdout, NAMESPACES);
    const plain = await rego(["inspect", "--annotations", "plain"]);
    assert.equal(plain.code, 0);
    assert.doesNotMatch(plain.stdout, /ANNOTATIONS/);
    const json = JSON.parse((await rego(["inspect", "-a", "-f", "json", "plain"])).stdout);
    assert.equal(json.annotations, undefined);
  });

  it("lists the annotations in --format json", async () => {
    const run = await rego(["inspect", "-a", "--format", "json", "an/authz.rego"]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { annotations: Record<string, unknown>[] };
    assert.deepEqual(out.annotations[0], {
      annotations: {
        authors: [{ name: "Jane Doe", email: "jane@example.com" }, { email: "ops@example.com" }],
        description: "Decides who may do what.",
        organizations: ["Acme"],
        scope: "package",
        title: "Authorization",
      },
      location: { file: "an/authz.rego", row: 9, col: 1 },
      path: [
        { type: "var", value: "data" },
        { type: "string", value: "authz" },
      ],
    });
    assert.deepEqual(out.annotations[1]?.annotations, {
      custom: { severity: "high", tags: ["a", "b"] },
      entrypoint: true,
      related_resources: [{ ref: "https://example.com/docs", description: "the docs" }],
      scope: "document",
      title: "Allow",
    });
    assert.deepEqual(out.annotations[2]?.annotations, {
      description: "no title here",
      schemas: [
        {
          path: [{ type: "var", value: "input" }],
          schema: [
            { type: "var", value: "schema" },
            { type: "string", value: "input" },
          ],
        },
      ],
      scope: "rule",
    });
    // Keys in Go's (sorted) order.
    assert.deepEqual(Object.keys(out.annotations[1]?.annotations as object), [
      "custom",
      "entrypoint",
      "related_resources",
      "scope",
      "title",
    ]);
  });

  it("refuses a bad format and a second path (usage errors exit 2)", async () => {
    const bad = await rego(["inspect", "-a", "-f", "yaml", "an"]);
    assert.equal(bad.code, 2);
    const two = await rego(["inspect", "-a", "an", "plain"]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /specify exactly one file or directory/);
  });
});
