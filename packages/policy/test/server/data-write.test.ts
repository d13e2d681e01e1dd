/** The Data API's writes: PUT, PATCH and DELETE on /v1/data, with OPA's answers. */
import assert from "node:assert/strict";
import { after, afterEach, beforeEach, describe, it } from "node:test";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

const POLICY = `package app

allow if data.users[input.name].admin

names := sort(object.keys(data.users))
`;

const DATA = { users: { alice: { admin: true } }, list: [1, 2, 3], scalar: 5 };

async function json(res: Response): Promise<unknown> {
  return res.json();
}

describe("Data API writes", () => {
  const files = policyDir({ "app.rego": POLICY, "data.json": JSON.stringify(DATA) });
  let h: Harness;
  const put = (path: string, value: unknown, headers?: Record<string, string>) =>
    h.send("PUT", path, JSON.stringify(value), headers);
  const patch = (path: string, ops: unknown) =>
    h.send("PATCH", path, JSON.stringify(ops), { "content-type": "application/json-patch+json" });
  const read = async (path: string) => json(await h.get(`/v1/data/${path}`));

  // Every test starts from the same state: the server is started afresh.
  beforeEach(async () => {
    h = await startHarness([files.dir]);
  });
  afterEach(() => h.server.close(1000));
  after(() => files.remove());

  it("PUT replaces a document, answers 204 with no body, and decisions see it", async () => {
    assert.deepEqual(
      await json(await h.post("/v1/data/app/allow", '{"input":{"name":"bob"}}')),
      {},
    );
    const res = await put("/v1/data/users/bob", { admin: true });
    assert.equal(res.status, 204);
    assert.equal(await res.text(), "");
    assert.deepEqual(await json(await h.post("/v1/data/app/allow", '{"input":{"name":"bob"}}')), {
      result: true,
    });
    assert.deepEqual(await read("app/names"), { result: ["alice", "bob"] });
  });

  it("PUT creates missing parents as objects", async () => {
    assert.equal((await put("/v1/data/a/b/c", 1)).status, 204);
    assert.deepEqual(await read("a"), { result: { b: { c: 1 } } });
  });

  it("PUT at the root replaces all of data; a non-object root is 400", async () => {
    assert.equal((await put("/v1/data", { only: 1 })).status, 204);
    assert.deepEqual(await read("only"), { result: 1 });
    assert.deepEqual(await read("users"), {});
    const bad = await put("/v1/data", [1]);
    assert.equal(bad.status, 400);
    assert.deepEqual(await json(bad), {
      code: "invalid_parameter",
      message: "storage_invalid_patch_error: root must be object",
    });
  });

  it("PUT with If-None-Match: * is 304 when the document exists, 204 when it does not", async () => {
    const kept = await put("/v1/data/scalar", 9, { "if-none-match": "*" });
    assert.equal(kept.status, 304);
    assert.deepEqual(await read("scalar"), { result: 5 });
    const made = await put("/v1/data/fresh", 9, { "if-none-match": "*" });
    assert.equal(made.status, 204);
    assert.deepEqual(await read("fresh"), { result: 9 });
  });

  it("PUT below a non-object is 404 resource_conflict", async () => {
    const res = await put("/v1/data/scalar/x/y", 1);
    assert.equal(res.status, 404);
    assert.deepEqual(await json(res), {
      code: "resource_conflict",
      message: "storage_write_conflict_error: /scalar",
    });
    assert.deepEqual(await read("scalar"), { result: 5 });
  });

  it("PUT where a rule defines the document is 400 and changes nothing", async () => {
    const res = await put("/v1/data/app", { allow: true });
    assert.equal(res.status, 400);
    const body = (await json(res)) as { code: string; message: string };
    assert.equal(body.code, "invalid_parameter");
    assert.match(
      body.message,
      /^1 error occurred: .*app\.rego:3: rego_compile_error: conflicting rule for data path app\/allow found/,
    );
    const below = await put("/v1/data/app/names/x", 1);
    assert.equal(below.status, 400);
    assert.match(
      ((await json(below)) as { message: string }).message,
      /^1 error occurred: .*app\.rego:5: rego_compile_error: conflicting rule for data path app\/names found$/,
    );
    assert.deepEqual(await read("app/names"), { result: ["alice"] });
    // Beside the rules is fine.
    assert.equal((await put("/v1/data/app/other", 1)).status, 204);
  });

  it("PUT with a malformed body is 400 invalid_parameter", async () => {
    const res = await h.send("PUT", "/v1/data/x", "{nope");
    assert.equal(res.status, 400);
    assert.equal(((await json(res)) as { code: string }).code, "invalid_parameter");
    const empty = await h.send("PUT", "/v1/data/x", "");
    assert.equal(empty.status, 400);
    assert.deepEqual(await read("x"), {});
  });

  it("PUT with ?metrics answers 200 with the timers", async () => {
    const res = await put("/v1/data/x?metrics", 1);
    assert.equal(res.status, 200);
    const body = (await json(res)) as { metrics: Record<string, number> };
    assert.equal(typeof body.metrics.timer_server_handler_ns, "number");
  });

  it("PATCH applies add, replace and remove relative to the URL path, all at once", async () => {
    const res = await patch("/v1/data/users", [
      { op: "add", path: "/bob", value: { admin: false } },
      { op: "replace", path: "alice/admin", value: false },
      { op: "add", path: "/carol", value: { admin: true } },
      { op: "remove", path: "/carol" },
    ]);
    assert.equal(res.status, 204);
    assert.deepEqual(await read("users"), {
      result: { alice: { admin: false }, bob: { admin: false } },
    });
  });

  it("PATCH inserts into and appends to arrays, and reads ~1 and ~0 in paths", async () => {
    const res = await patch("/v1/data", [
      { op: "add", path: "/list/0", value: 0 },
      { op: "add", path: "/list/-", value: 4 },
      { op: "remove", path: "/list/1" },
      { op: "add", path: "/a~1b~0c", value: true },
    ]);
    assert.equal(res.status, 204);
    assert.deepEqual(await read("list"), { result: [0, 2, 3, 4] });
    assert.deepEqual(await read("a%2Fb~c"), { result: true });
  });

  it("PATCH with an unknown op is 400 'bad patch operation' and changes nothing", async () => {
    const res = await patch("/v1/data", [
      { op: "add", path: "/x", value: 1 },
      { op: "move", path: "/y" },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(await json(res), {
      code: "invalid_parameter",
      message: "bad patch operation: move",
    });
    assert.deepEqual(await read("x"), {});
  });

  it("PATCH with a bad path is 400 'bad patch path'", async () => {
    const res = await patch("/v1/data", [{ op: "add", path: "/%zz", value: 1 }]);
    assert.equal(res.status, 400);
    assert.deepEqual(await json(res), {
      code: "invalid_parameter",
      message: "bad patch path: /%zz",
    });
  });

  it("PATCH whose later step fails leaves every earlier step undone (404)", async () => {
    const res = await patch("/v1/data", [
      { op: "add", path: "/x", value: 1 },
      { op: "replace", path: "/missing/deeper", value: 1 },
    ]);
    assert.equal(res.status, 404);
    assert.deepEqual(await json(res), {
      code: "resource_not_found",
      message: "storage_not_found_error: /missing/deeper: document does not exist",
    });
    assert.deepEqual(await read("x"), {});
  });

  it("PATCH remove or replace of a missing target, or a bad array index, is 404", async () => {
    const cases: [unknown, string][] = [
      [{ op: "remove", path: "/users/zed" }, "/users/zed: document does not exist"],
      [{ op: "replace", path: "/list/7", value: 1 }, "/list/7: array index out of range"],
      [{ op: "add", path: "/list/9", value: 1 }, "/list/9: array index out of range"],
      [{ op: "add", path: "/list/x", value: 1 }, "/list/x: array index must be integer"],
      [{ op: "add", path: "/nope/a", value: 1 }, "/nope/a: document does not exist"],
    ];
    for (const [op, message] of cases) {
      const res = await patch("/v1/data", [op]);
      assert.equal(res.status, 404, JSON.stringify(op));
      assert.deepEqual(await json(res), {
        code: "resource_not_found",
        message: `storage_not_found_error: ${message}`,
      });
    }
  });

  it("PATCH that puts data where a rule is defined is 400", async () => {
    const res = await patch("/v1/data", [{ op: "add", path: "/app", value: { names: 1 } }]);
    assert.equal(res.status, 400);
    assert.match(
      ((await json(res)) as { message: string }).message,
      /conflicting rule for data path app\/names/,
    );
  });

  it("PATCH with a body that is not an array is 400", async () => {
    const res = await patch("/v1/data", { op: "add" });
    assert.equal(res.status, 400);
    assert.equal(((await json(res)) as { code: string }).code, "invalid_parameter");
  });

  it("DELETE removes a document (204) and is 404 when it does not exist", async () => {
    const res = await h.send("DELETE", "/v1/data/users/alice");
    assert.equal(res.status, 204);
    assert.deepEqual(await read("users"), { result: {} });
    const again = await h.send("DELETE", "/v1/data/users/alice");
    assert.equal(again.status, 404);
    assert.deepEqual(await json(again), {
      code: "resource_not_found",
      message: "storage_not_found_error: /users/alice: document does not exist",
    });
    const element = await h.send("DELETE", "/v1/data/list/0");
    assert.equal(element.status, 204);
    assert.deepEqual(await read("list"), { result: [2, 3] });
  });
});
