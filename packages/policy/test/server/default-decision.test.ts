/** `POST /`: OPA's default decision, data.system.main, with the body as the input. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EXAMPLES_DIR } from "../fixtures.js";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

const MAIN = `package system

main := {"allowed": allowed, "user": input.user}

allowed if input.user == "alice"

default allowed := false
`;

const PARTIAL = `package system

main if input.user == "alice"
`;

describe("POST / (the default decision)", () => {
  const files = policyDir({
    "main.rego": MAIN,
    "other/x.rego": 'package other\n\ndecision := {"path": "custom", "n": input.n}\n',
  });
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir]);
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("answers the bare value of data.system.main for the body as input", async () => {
    const res = await h.post("/", JSON.stringify({ user: "alice" }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { allowed: true, user: "alice" });
    const bob = await h.post("/", JSON.stringify({ user: "bob" }));
    assert.deepEqual(await bob.json(), { allowed: false, user: "bob" });
  });

  it("evaluates without input for an empty body (input.user undefined: so is main)", async () => {
    const res = await h.post("/", "");
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      code: "undefined_document",
      message: "document undefined: data.system.main",
    });
  });

  it("indents with ?pretty", async () => {
    const res = await h.post("/?pretty", JSON.stringify({ user: "alice" }));
    assert.equal(await res.text(), '{\n  "allowed": true,\n  "user": "alice"\n}\n');
  });

  it("refuses a malformed body with 400 invalid_parameter", async () => {
    const res = await h.post("/", "{bad");
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: string; message: string };
    assert.equal(body.code, "invalid_parameter");
    assert.match(body.message, /^body contains malformed input document/);
  });

  it("answers 405 for other methods on / and 404 for //x", async () => {
    assert.equal((await h.request("GET", "/")).status, 405);
    assert.equal((await h.request("PUT", "/")).status, 405);
    assert.equal((await h.request("GET", "/nothing")).status, 404);
  });
});

describe("POST / when the default decision is undefined", () => {
  const files = policyDir({ "main.rego": PARTIAL });
  let withRules: Harness;
  let without: Harness;
  before(async () => {
    withRules = await startHarness([files.dir]);
    without = await startHarness([EXAMPLES_DIR]);
  });
  after(async () => {
    await withRules.server.close(1000);
    await without.server.close(1000);
    files.remove();
  });

  it("is 404 'document undefined' when rules define data.system.main", async () => {
    const ok = await withRules.post("/", JSON.stringify({ user: "alice" }));
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "true\n");
    const res = await withRules.post("/", JSON.stringify({ user: "bob" }));
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      code: "undefined_document",
      message: "document undefined: data.system.main",
    });
  });

  it("is 404 'document missing' when nothing defines it", async () => {
    const res = await without.post("/", "{}");
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      code: "undefined_document",
      message: "document missing: data.system.main",
    });
  });
});

describe("POST / with a configured default_decision", () => {
  const files = policyDir({
    "x.rego": 'package other\n\ndecision := {"path": "custom", "n": input.n}\n',
  });
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir], { defaultDecision: ["other", "decision"] });
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("answers the configured path instead of data.system.main", async () => {
    const res = await h.post("/", JSON.stringify({ n: 3 }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { path: "custom", n: 3 });
  });
});
