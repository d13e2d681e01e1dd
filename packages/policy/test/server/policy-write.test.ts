/** The Policy API: reading policies with their AST, PUT and DELETE compiled all or nothing. */
import assert from "node:assert/strict";
import { after, afterEach, beforeEach, describe, it } from "node:test";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

const LIB = `package lib

double(x) := x * 2
`;

const APP = `package app

import data.lib

value := lib.double(input.n)
`;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { code: string; message: string; location?: { file: string; row: number } }[];
}

describe("Policy API", () => {
  const files = policyDir({
    "lib.rego": LIB,
    "app.rego": APP,
    "data.json": JSON.stringify({ taken: { x: 1 } }),
  });
  let h: Harness;
  let libId: string;
  beforeEach(async () => {
    h = await startHarness([files.dir]);
    const list = (await (await h.get("/v1/policies")).json()) as { result: { id: string }[] };
    libId = list.result.map((p) => p.id).find((id) => id.endsWith("lib.rego")) as string;
  });
  afterEach(() => h.server.close(1000));
  after(() => files.remove());

  const decide = async (n: number) =>
    (await h.post("/v1/data/app/value", JSON.stringify({ input: { n } }))).json();
  const putPolicy = (id: string, text: string) =>
    h.send("PUT", `/v1/policies/${id}`, text, { "content-type": "text/plain" });
  const policyPath = (id: string) => `/v1/policies/${id.replace(/^\//, "")}`;

  it("lists policies with id, raw and OPA's JSON AST", async () => {
    const res = await h.get(policyPath(libId));
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      result: { id: string; raw: string; ast: { package: { path: unknown[] }; rules: unknown[] } };
    };
    assert.equal(body.result.id, libId);
    assert.equal(body.result.raw, LIB);
    assert.deepEqual(body.result.ast.package.path, [
      { type: "var", value: "data" },
      { type: "string", value: "lib" },
    ]);
    assert.equal(body.result.ast.rules.length, 1);
  });

  it("PUT adds a policy (200 {}) that decisions and GET see at once", async () => {
    const res = await putPolicy("extra/p.rego", "package extra\n\nanswer := 42\n");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "{}\n");
    assert.deepEqual(await (await h.get("/v1/data/extra/answer")).json(), { result: 42 });
    const got = (await (await h.get("/v1/policies/extra/p.rego")).json()) as {
      result: { id: string };
    };
    assert.equal(got.result.id, "extra/p.rego");
    const again = await putPolicy("extra/p.rego", "package extra\n\nanswer := 42\n");
    assert.equal(again.status, 200);
    assert.equal(await again.text(), "{}\n");
  });

  it("PUT replaces a policy by id", async () => {
    assert.deepEqual(await decide(3), { result: 6 });
    const res = await putPolicy(
      libId.replace(/^\//, ""),
      "package lib\n\ndouble(x) := x + x + 1\n",
    );
    assert.equal(res.status, 200);
    assert.deepEqual(await decide(3), { result: 7 });
  });

  it("PUT of text that does not parse is 400 with rego_parse_error items, nothing changed", async () => {
    const res = await putPolicy("bad.rego", "package bad\n\nx := [1,\n");
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.equal(body.message, "error(s) occurred while compiling module(s)");
    assert.equal(body.errors?.[0]?.code, "rego_parse_error");
    assert.equal(body.errors?.[0]?.location?.file, "bad.rego");
    assert.equal((await h.get("/v1/policies/bad.rego")).status, 404);
  });

  it("PUT of a policy that does not compile is 400 with its errors", async () => {
    const res = await putPolicy("unsafe.rego", "package unsafe\n\np if { x > 1 }\n");
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.equal(body.message, "error(s) occurred while compiling module(s)");
    assert.equal(body.errors?.[0]?.code, "rego_unsafe_var_error");
    assert.equal((await h.get("/v1/policies/unsafe.rego")).status, 404);
  });

  it("PUT that breaks another policy is refused whole", async () => {
    const res = await putPolicy(libId.replace(/^\//, ""), "package lib\n\ntriple(x) := x * 3\n");
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.ok(
      body.errors?.some((e) => e.location?.file.endsWith("app.rego")),
      JSON.stringify(body),
    );
    assert.deepEqual(await decide(3), { result: 6 });
  });

  it("PUT of a rule where data is stored is 400 (data/policy conflict)", async () => {
    const res = await putPolicy("taken.rego", "package taken\n\nx := 2\n");
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.match(body.errors?.[0]?.message ?? "", /conflicting rule for data path taken\/x found/);
    assert.deepEqual(await (await h.get("/v1/data/taken/x")).json(), { result: 1 });
  });

  it("PUT of an empty module is 400 'empty module'", async () => {
    const res = await putPolicy("empty.rego", "# only a comment\n\n");
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { code: "invalid_parameter", message: "empty module" });
  });

  it("answers 400 for a policy id that does not percent-decode", async () => {
    const res = await putPolicy("bad%zz.rego", "package z\n\nx := 1\n");
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      code: "invalid_parameter",
      message: "invalid policy id: bad%zz.rego",
    });
    assert.equal((await h.get("/v1/policies/bad%zz.rego")).status, 400);
  });

  it("PUT with ?metrics answers the timers", async () => {
    const res = await putPolicy("m.rego?metrics", "package m\n\nx := 1\n");
    assert.equal(res.status, 200);
    const body = (await res.json()) as { metrics: Record<string, number> };
    assert.equal(typeof body.metrics.timer_server_handler_ns, "number");
  });

  it("DELETE removes a policy (200 {}); an unknown id is 404", async () => {
    const appId = libId.replace(/lib\.rego$/, "app.rego");
    const res = await h.send("DELETE", policyPath(appId));
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "{}\n");
    assert.deepEqual(await decide(3), {});
    const again = await h.send("DELETE", policyPath(appId));
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as ErrorBody).code, "resource_not_found");
  });

  it("DELETE of a policy another one needs is 400 invalid_operation", async () => {
    const res = await h.send("DELETE", policyPath(libId));
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_operation");
    assert.equal(body.message, "error(s) occurred while compiling module(s)");
    assert.ok((body.errors ?? []).length > 0);
    assert.deepEqual(await decide(3), { result: 6 });
  });
});
