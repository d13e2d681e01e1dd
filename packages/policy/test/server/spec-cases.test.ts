/**
 * The spec's table of decisions for the example packages, sent over HTTP to a real server:
 * every package and rule, the permitted name "alice" and others, the admin role, a user
 * missing from user_roles, and the default limit.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EXAMPLES_DIR } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

let h: Harness;

before(async () => {
  h = await startHarness([EXAMPLES_DIR]);
});

after(async () => {
  await h.server.close(1000);
});

async function decide(pkg: string, input: Record<string, unknown>): Promise<unknown> {
  const res = await h.post(`/v1/data/${pkg}`, JSON.stringify({ input }));
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const body = (await res.json()) as { result?: unknown };
  return body.result;
}

const cases: { pkg: string; input: Record<string, unknown>; want: unknown; note: string }[] = [
  {
    note: "simple allows the permitted name",
    pkg: "simple",
    input: { name: "alice" },
    want: { allow: true, env: "dev" },
  },
  {
    note: "simple denies another name",
    pkg: "simple",
    input: { name: "bob" },
    want: { allow: false, env: "dev" },
  },
  {
    note: "simple denies when no name is given",
    pkg: "simple",
    input: {},
    want: { allow: false, env: "dev" },
  },
  {
    note: "permissions give alice read and execute without the admin role",
    pkg: "permissions",
    input: { name: "alice", role: "user" },
    want: { allow: true, perms: ["execute", "read"] },
  },
  {
    note: "permissions give alice write too with the admin role, sorted",
    pkg: "permissions",
    input: { name: "alice", role: "admin" },
    want: { allow: true, perms: ["execute", "read", "write"] },
  },
  {
    note: "permissions give others read only, even as admin",
    pkg: "permissions",
    input: { name: "bob", role: "admin" },
    want: { allow: false, perms: ["read"] },
  },
  {
    note: "limits allow an active admin with the admin limit",
    pkg: "limits",
    input: { name: "alice" },
    want: { allow: true, role: "admin", limit: 10000.5 },
  },
  {
    note: "limits allow an active user with the user limit",
    pkg: "limits",
    input: { name: "bob" },
    want: { allow: true, role: "user", limit: 1000.75 },
  },
  {
    note: "limits deny an inactive user and keep the default limit 0.00",
    pkg: "limits",
    input: { name: "carol" },
    want: { allow: false, role: "manager", limit: 0 },
  },
  {
    note: "limits leave role out for a user missing from user_roles",
    pkg: "limits",
    input: { name: "mallory" },
    want: { allow: false, limit: 0 },
  },
];

describe("the spec's decision table over HTTP", () => {
  for (const c of cases) {
    it(c.note, async () => {
      assert.deepEqual(await decide(c.pkg, c.input), c.want);
    });
  }

  it("answers a single rule path with its bare value", async () => {
    assert.equal(await decide("limits/limit", { name: "bob" }), 1000.75);
    assert.equal(await decide("simple/allow", { name: "alice" }), true);
    assert.deepEqual(await decide("permissions/perms", { name: "zoe" }), ["read"]);
  });

  it("answers 200 without a result key for an undefined document", async () => {
    const res = await h.post(
      "/v1/data/limits/role",
      JSON.stringify({ input: { name: "mallory" } }),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    const missing = await h.post("/v1/data/no/such/package", JSON.stringify({ input: {} }));
    assert.deepEqual(await missing.json(), {});
  });

  it("serves the whole of data on POST /v1/data", async () => {
    const res = await h.post("/v1/data", JSON.stringify({ input: { name: "alice" } }));
    const body = (await res.json()) as { result: Record<string, unknown> };
    assert.deepEqual(body.result.simple, { allow: true, env: "dev" });
    assert.deepEqual(body.result.user_roles, {
      alice: { role: "admin", active: true },
      bob: { role: "user", active: true },
      carol: { role: "manager", active: false },
    });
  });

  it("reads the input of a GET from the input parameter", async () => {
    const input = encodeURIComponent(JSON.stringify({ name: "alice" }));
    const res = await h.get(`/v1/data/simple?input=${input}`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { result: { allow: true, env: "dev" } });
  });
});
