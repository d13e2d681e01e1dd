/**
 * POST /v1/compile: partial evaluation over HTTP, with OPA's shapes (`{"result": {"queries",
 * "support"}}`, `{"result": {}}` when never true) and every error answer.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

const tree = tempTree({
  "filters/filters.rego": `package filters

allow if input.resource.owner == input.user

allow if input.user in data.admins

default decision := false

decision if input.resource.public == true
`,
  "data.json": '{"admins": ["root"]}',
});

let h: Harness;

before(async () => {
  h = await startHarness([tree.dir]);
});

after(async () => {
  await h.server.close(1000);
  tree.remove();
});

interface ErrorBody {
  code: string;
  message: string;
  errors?: { code: string; message: string }[];
}

async function compile(body: unknown, params = ""): Promise<Response> {
  return h.post(`/v1/compile${params}`, typeof body === "string" ? body : JSON.stringify(body));
}

const OWNER_EQ_BOB = [
  {
    index: 0,
    terms: [
      { type: "ref", value: [{ type: "var", value: "equal" }] },
      {
        type: "ref",
        value: [
          { type: "var", value: "input" },
          { type: "string", value: "resource" },
          { type: "string", value: "owner" },
        ],
      },
      { type: "string", value: "bob" },
    ],
  },
];

describe("POST /v1/compile", () => {
  it("answers the residual queries for a data filter", async () => {
    const res = await compile({
      query: "data.filters.allow == true",
      input: { user: "bob" },
      unknowns: ["input.resource"],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { result: { queries: [OWNER_EQ_BOB] } });
  });

  it("answers an empty query among them when the decision always holds", async () => {
    const res = await compile({
      query: "data.filters.allow == true",
      input: { user: "root" },
      unknowns: ["input.resource"],
    });
    const body = (await res.json()) as { result: { queries: unknown[][] } };
    // The owner rule still gives its residual; the admin rule holds outright.
    assert.equal(body.result.queries.length, 2);
    assert.deepEqual(body.result.queries[1], []);
  });

  it("answers {result: {}} when the query can never hold", async () => {
    const res = await compile({ query: "1 == 2" });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { result: {} });
  });

  it("defaults the unknowns to input", async () => {
    const res = await compile({ query: "input.x == 1" });
    const body = (await res.json()) as { result: { queries: unknown[][] } };
    assert.equal(body.result.queries.length, 1);
    assert.equal(body.result.queries[0]?.length, 1);
  });

  it("writes support modules for rules with defaults and for disableInlining", async () => {
    const res = await compile({ query: "data.filters.decision = x" });
    const body = (await res.json()) as {
      result: { queries: unknown[]; support: { package: { path: { value: string }[] } }[] };
    };
    assert.deepEqual(
      body.result.support[0]?.package.path.map((p) => p.value),
      ["data", "partial", "filters"],
    );
    const inlined = await compile({
      query: "data.filters.allow == true",
      input: { user: "bob" },
      unknowns: ["input.resource"],
      options: { disableInlining: ["data.filters.allow"] },
    });
    const b2 = (await inlined.json()) as { result: { support?: unknown[] } };
    assert.equal(b2.result.support?.length, 1);
  });

  it("adds the timers with ?metrics, before the result", async () => {
    const res = await compile({ query: "input.x == 1" }, "?metrics");
    const text = await res.text();
    const body = JSON.parse(text) as { metrics: Record<string, number>; result: unknown };
    assert.deepEqual(Object.keys(body), ["metrics", "result"]);
    assert.deepEqual(Object.keys(body.metrics).sort(), [
      "timer_rego_input_parse_ns",
      "timer_rego_partial_eval_ns",
      "timer_server_handler_ns",
    ]);
    for (const v of Object.values(body.metrics)) assert.ok(Number.isInteger(v) && v >= 0);
  });

  it("indents the answer with ?pretty", async () => {
    const res = await compile({ query: "1 == 2" }, "?pretty=true");
    assert.equal(await res.text(), '{\n  "result": {}\n}\n');
  });
});

describe("POST /v1/compile errors", () => {
  async function expectError(res: Response, message: RegExp | string): Promise<ErrorBody> {
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    if (typeof message === "string") assert.equal(body.message, message);
    else assert.match(body.message, message);
    return body;
  }

  it("answers malformed JSON with 400", async () => {
    await expectError(await compile('{"query": '), /^error\(s\) occurred while decoding request: /);
  });

  it("answers a body that is not an object with 400", async () => {
    await expectError(await compile("[1]"), /^error\(s\) occurred while decoding request: /);
  });

  it("answers a missing or empty query with 400", async () => {
    await expectError(await compile({ input: {} }), "missing required 'query' value");
    await expectError(await compile({ query: "" }), "missing required 'query' value");
    await expectError(await compile({ query: "  " }), "missing required 'query' value");
  });

  it("answers an empty body or a query that is not a string as undecodable", async () => {
    await expectError(await compile(""), "error(s) occurred while decoding request: EOF");
    await expectError(
      await compile({ query: 5 }),
      /^error\(s\) occurred while decoding request: query/,
    );
  });

  it("answers a query that does not parse with rego_parse_error items", async () => {
    const body = await expectError(
      await compile({ query: "data.filters.allow ==" }),
      "error(s) occurred while parsing query",
    );
    assert.equal(body.errors?.[0]?.code, "rego_parse_error");
  });

  it("answers a query that does not compile with rego_* items", async () => {
    const body = await expectError(
      await compile({ query: "data.filters.nope(1)" }),
      "error(s) occurred while compiling query",
    );
    assert.match(body.errors?.[0]?.code ?? "", /^rego_/);
    const unsafe = await expectError(
      await compile({ query: "x > 1" }),
      "error(s) occurred while compiling query",
    );
    assert.equal(unsafe.errors?.[0]?.code, "rego_unsafe_var_error");
  });

  it("answers unknowns that are not a list of terms with 400", async () => {
    await expectError(
      await compile({ query: "true", unknowns: "input" }),
      /^error\(s\) occurred while decoding request: unknowns/,
    );
    await expectError(
      await compile({ query: "true", unknowns: ["1 +"] }),
      /^error\(s\) occurred while parsing unknowns: .*rego_parse_error/,
    );
    // Any term is accepted, as in OPA; one that is not under input or data matches nothing.
    const other = await compile({ query: "input.x == 1", unknowns: ["x.y"] });
    assert.deepEqual(await other.json(), { result: {} });
    await expectError(
      await compile({ query: "true", options: { disableInlining: [1] } }),
      /^error\(s\) occurred while decoding request: options.disableInlining/,
    );
  });

  it("answers a nondeterministicBuiltins option that is not a boolean with 400", async () => {
    await expectError(
      await compile({ query: "true", options: { nondeterministicBuiltins: "yes" } }),
      /^error\(s\) occurred while decoding request: options.nondeterministicBuiltins/,
    );
    const ok = await compile({
      query: "time.now_ns(x)",
      options: { nondeterministicBuiltins: true },
    });
    const body = (await ok.json()) as { result: { queries: { terms: unknown[] }[][] } };
    // Evaluated now: `x = <the time>`, an `eq` of the var and a number.
    assert.deepEqual(body.result.queries[0]?.[0]?.terms[0], {
      type: "ref",
      value: [{ type: "var", value: "eq" }],
    });
  });

  it("answers other methods with 405", async () => {
    const res = await h.get("/v1/compile");
    assert.equal(res.status, 405);
  });

  it("answers paths below /v1/compile (OPA's data-filter extension) with 404", async () => {
    const res = await h.post("/v1/compile/filters/allow", "{}");
    assert.equal(res.status, 404);
    assert.equal(await res.text(), "404 page not found\n");
  });
});
