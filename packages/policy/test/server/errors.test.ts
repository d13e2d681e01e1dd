/**
 * Every error answer of the server, with OPA's codes and status: malformed bodies, non-object
 * bodies, bodies over the limit, evaluation errors, strict builtin errors, bad paths,
 * methods and routes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

const tree = tempTree({
  "errs/errs.rego": `package errs

x := input.a
x := input.b

quotient := 10 / input.n
`,
  "errs/data.json": '{"list": ["a", "b"], "byId": {"1": "one"}}',
});

let h: Harness;

before(async () => {
  h = await startHarness([EXAMPLES_DIR, tree.dir]);
});

after(async () => {
  await h.server.close(1000);
  tree.remove();
});

interface ErrorBody {
  code: string;
  message: string;
  errors?: {
    code: string;
    message: string;
    location?: { file: string; row: number; col: number };
  }[];
}

describe("request errors", () => {
  it("answers malformed JSON with 400 invalid_parameter", async () => {
    const res = await h.post("/v1/data/simple", '{"input": {"name": ');
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.match(body.message, /^body contains malformed input document: /);
  });

  // OPA reads bodies with Go's json.Decoder and quotes its error.
  for (const [bad, why] of [
    ['{"input": @}', "invalid character '@' looking for beginning of value"],
    ['{"input": {"name": ', "unexpected EOF"],
    ['{"input": [1,]}', "invalid character ']' looking for beginning of value"],
    ['{"input" 1}', "invalid character '1' after object key"],
  ]) {
    it(`words the malformed body ${bad} as Go's decoder does`, async () => {
      const res = await h.post("/v1/data/simple", bad as string);
      assert.equal(res.status, 400);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.message, `body contains malformed input document: ${why}`);
    });
  }

  for (const bad of ["[1, 2]", '"alice"', "42", "true"]) {
    it(`answers the non-object body ${bad} with 400 invalid_parameter`, async () => {
      const res = await h.post("/v1/data/simple", bad);
      assert.equal(res.status, 400);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.code, "invalid_parameter");
      assert.match(body.message, /malformed input document/);
    });
  }

  it("answers a body over 1 MiB with 413 and keeps serving", async () => {
    const big = JSON.stringify({ input: { name: "x".repeat(1024 * 1024 + 10) } });
    const res = await h.post("/v1/data/simple", big);
    assert.equal(res.status, 413);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.equal(body.message, "request body too large");
    const next = await h.post("/v1/data/simple", JSON.stringify({ input: { name: "alice" } }));
    assert.deepEqual(await next.json(), { result: { allow: true, env: "dev" } });
  });

  it("accepts a body of just under 1 MiB", async () => {
    const body = JSON.stringify({ input: { name: "bob", pad: "y".repeat(1024 * 1024 - 100) } });
    const res = await h.post("/v1/data/simple/allow", body);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { result: false });
  });

  it("inflates a gzip body within the same limit", async () => {
    const zipped = gzipSync(JSON.stringify({ input: { name: "alice" } }));
    const ok = await fetch(`${h.server.url}/v1/data/simple/allow`, {
      method: "POST",
      body: zipped,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    assert.deepEqual(await ok.json(), { result: true });
    const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, 32));
    const tooBig = await fetch(`${h.server.url}/v1/data/simple/allow`, {
      method: "POST",
      body: bomb,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    assert.equal(tooBig.status, 413);
  });

  it("warns when the body has no input key, and still decides", async () => {
    for (const body of ['{"name": "alice"}', "", "null"]) {
      const res = await h.post("/v1/data/simple", body);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {
        result: { allow: false, env: "dev" },
        warning: { code: "api_usage_warning", message: "'input' key missing from the request" },
      });
    }
  });

  it("answers a malformed input parameter with 400", async () => {
    const res = await h.get("/v1/data/simple?input=%7Bnope");
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.match(body.message, /^parameter contains malformed input document: /);
  });

  it("rejects a path segment holding a double quote", async () => {
    const res = await h.get("/v1/data/simple/%22x%22");
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as ErrorBody).code, "invalid_parameter");
  });
});

describe("evaluation errors", () => {
  it("answers a conflict with 500 internal_error holding the eval error", async () => {
    const res = await h.post("/v1/data/errs/x", JSON.stringify({ input: { a: 1, b: 2 } }));
    assert.equal(res.status, 500);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "internal_error");
    assert.equal(body.message, "error(s) occurred while evaluating query");
    assert.equal(body.errors?.length, 1);
    assert.equal(body.errors?.[0]?.code, "eval_conflict_error");
    assert.match(body.errors?.[0]?.location?.file ?? "", /errs\.rego$/);
  });

  it("gives no conflict when both rules agree", async () => {
    const res = await h.post("/v1/data/errs/x", JSON.stringify({ input: { a: 1, b: 1 } }));
    assert.deepEqual(await res.json(), { result: 1 });
  });

  it("makes a failing builtin undefined unless strict-builtin-errors is asked", async () => {
    const input = JSON.stringify({ input: { n: 0 } });
    const lenient = await h.post("/v1/data/errs/quotient", input);
    assert.equal(lenient.status, 200);
    assert.deepEqual(await lenient.json(), {});
    const strict = await h.post("/v1/data/errs/quotient?strict-builtin-errors", input);
    assert.equal(strict.status, 500);
    const body = (await strict.json()) as ErrorBody;
    assert.equal(body.code, "internal_error");
    assert.equal(body.errors?.[0]?.code, "eval_builtin_error");
    const ok = await h.post(
      "/v1/data/errs/quotient?strict-builtin-errors=true",
      JSON.stringify({ input: { n: 5 } }),
    );
    assert.deepEqual(await ok.json(), { result: 2 });
  });
});

describe("data paths", () => {
  it("reads a digit segment as an array index or an object key, whichever the data has", async () => {
    assert.deepEqual(await (await h.get("/v1/data/errs/list/1")).json(), { result: "b" });
    assert.deepEqual(await (await h.get("/v1/data/errs/byId/1")).json(), { result: "one" });
    assert.deepEqual(await (await h.get("/v1/data/errs/list/7")).json(), {});
  });

  it("percent-decodes segments and skips empty ones", async () => {
    assert.deepEqual(await (await h.get("/v1/data//errs/%6Cist//0")).json(), { result: "a" });
  });
});

describe("routes and methods", () => {
  it("answers 405 with an empty body for unsupported methods of known routes", async () => {
    for (const [method, path] of [
      ["HEAD", "/v1/data/simple"],
      ["PUT", "/v0/data/simple"],
      ["DELETE", "/v1/policies"],
      ["POST", "/health"],
      ["DELETE", "/v1/query"],
    ] as const) {
      const res = await h.request(method, path);
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(await res.text(), "");
    }
  });

  it("answers 404 for unknown routes", async () => {
    for (const path of ["/v2/data/simple", "/v1/datax", "/healthz"]) {
      const res = await h.get(path);
      assert.equal(res.status, 404, path);
    }
  });
});
