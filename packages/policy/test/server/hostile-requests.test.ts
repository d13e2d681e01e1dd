/**
 * Requests an attacker would send: input nested past the depth limit (400), evaluation that
 * overflows the JavaScript stack (500 internal_error, never a decision), and small queries
 * that would build huge collections or run for ever (an eval_* error, after which the
 * server still answers).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

const tree = tempTree({
  "hostile/hostile.rego": `package hostile

deny contains "one inside" if {
  walk(input, [_, v])
  v == 1
}

paths := count([p | walk(input, [p, _])])

# The JWT reader does not recurse, but json.marshal does: a payload 9,000 levels deep
# overflows the stack there.
deny contains "token" if {
  [_, payload, _] := io.jwt.decode(input.token)
  json.marshal(payload) != "1"
}
`,
});

/** JSON text of `{"a": {"a": ... {"leaf": 1}}}`: `levels` objects in all. */
function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{"leaf":1}${"}".repeat(levels - 1)}`;
}

/** A JWT whose payload is `{"a": [[[...]]]}`, `levels` arrays deep. */
function deepToken(levels: number): string {
  const part = (json: string) => Buffer.from(json).toString("base64url");
  const payload = `{"a":${"[".repeat(levels)}${"]".repeat(levels)}}`;
  return `${part('{"alg":"HS256","typ":"JWT"}')}.${part(payload)}.${part("sig")}`;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { code: string; message: string }[];
}

let h: Harness;

before(async () => {
  h = await startHarness([tree.dir], {
    evalTimeoutMs: 1000,
    maxInputDepth: 1000,
    maxCollectionSize: 10_000,
  });
});

after(async () => {
  await h.server.close(1000);
  tree.remove();
});

describe("input depth", () => {
  it("answers 400 invalid_parameter naming the limit for input 1,001 levels deep", async () => {
    const requests = [
      h.post("/v1/data/hostile/deny", `{"input": ${nestedText(1001)}}`),
      h.post(
        "/v1/query",
        JSON.stringify({ query: "x := input", input: "@" }).replace('"@"', nestedText(1001)),
      ),
      h.post("/v0/data/hostile/deny", nestedText(1001)),
      h.get(`/v1/data/hostile/deny?input=${encodeURIComponent(nestedText(1001))}`),
    ];
    for (const res of await Promise.all(requests)) {
      assert.equal(res.status, 400);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.code, "invalid_parameter");
      assert.match(body.message, /maximum depth of 1000 \(REGO_MAX_INPUT_DEPTH\)/);
    }
  });

  it("answers 400, not 500, for input 10,000 levels deep", async () => {
    const deep = nestedText(10_000);
    const requests = [
      h.post("/v1/data/hostile/deny", `{"input": ${deep}}`),
      h.post("/v1/data/hostile/deny", `{"input": ${deep}, "n": 12345678901234567890}`),
      h.post("/v1/query", JSON.stringify({ query: "x := input", input: "@" }).replace('"@"', deep)),
      h.post("/v0/data/hostile/deny", deep),
    ];
    for (const res of await Promise.all(requests)) {
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as ErrorBody).code, "invalid_parameter");
    }
  });

  it("answers 400 for YAML input nested too deep for the YAML reader", async () => {
    const yaml = `input: ${"[".repeat(999)}${"]".repeat(999)}\n`;
    const res = await h.post("/v1/data/hostile/deny", yaml, { "content-type": "application/yaml" });
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.match(body.message, /YAML input document nesting exceeds the maximum depth of 256/);
  });

  it("evaluates input 1,000 levels deep correctly", async () => {
    const res = await h.post(
      "/v1/query",
      `{"query": "n := data.hostile.paths; d := data.hostile.deny", "input": ${nestedText(1000)}}`,
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: { n: number; d: string[] }[] };
    // 1,000 objects and the leaf value.
    assert.equal(body.result[0]?.n, 1001);
    assert.deepEqual(body.result[0]?.d, ["one inside"]);
  });
});

describe("internal errors", () => {
  it("answers a stack overflow inside a builtin with 500 internal_error, not a decision", async () => {
    const res = await h.post(
      "/v1/data/hostile/deny",
      JSON.stringify({ input: { token: deepToken(9000) } }),
    );
    assert.equal(res.status, 500);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "internal_error");
    assert.equal(body.errors?.[0]?.code, "internal_error");
  });

  it("answers a query of 1,000 conditions with its one solution", async () => {
    const query = Array.from({ length: 1000 }, () => "input.a == 1").join("; ");
    const res = await h.post("/v1/query", JSON.stringify({ query, input: { a: 1 } }));
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result?: unknown[] };
    assert.equal(body.result?.length, 1);
  });
});

describe("bounded work", () => {
  const cases: [string, string, string][] = [
    [
      "a comprehension over a huge range",
      "x := [y | numbers.range(1, 200000)[y]]",
      "eval_limit_error",
    ],
    [
      "nested comprehensions",
      "x := [[a, b] | a := numbers.range(1, 100000)[_]; b := numbers.range(1, 100000)[_]]",
      "eval_limit_error",
    ],
    [
      "a huge set of solutions",
      "a := numbers.range(1, 200)[_]; b := numbers.range(1, 200)[_]",
      "eval_limit_error",
    ],
    [
      "a search that never ends",
      "numbers.range(1, 10000)[a]; numbers.range(1, 10000)[b]; numbers.range(1, 10000)[c]; a + b + c < 0",
      "eval_cancel_error",
    ],
  ];
  for (const [what, query, code] of cases) {
    it(`answers ${what} with 500 ${code}, then still answers /health`, async () => {
      const res = await h.get(`/v1/query?q=${encodeURIComponent(query)}`);
      assert.equal(res.status, 500);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.code, "internal_error");
      assert.equal(body.errors?.[0]?.code, code);
      const health = await h.get("/health");
      assert.equal(health.status, 200);
    });
  }
});
