/**
 * `provenance`, `explain` and `instrument` (with `metrics`) on the Data and Query APIs, in
 * OPA's response shapes; `POST /` answers the bare value whatever they say. Run on the
 * worker pool (the trace and timers are made where the decision is evaluated).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

const POLICY = `package t

import rego.v1

allow if {
  trace("checking role")
  input.role == "admin"
}

default missing := false
`;

const SYSTEM = `package system

main := data.t.allow
`;

interface TraceEvent {
  op: string;
  query_id: number;
  parent_id: number;
  type: string;
  node: string;
  location?: { file: string; row: number; col: number };
  message?: string;
}

function packageVersion(): string {
  const url = new URL("../../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

describe("provenance, explain and instrument", () => {
  const files = policyDir({ "t.rego": POLICY, "system.rego": SYSTEM });
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir], { workers: 2 });
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  const admin = JSON.stringify({ input: { role: "admin" } });

  it("adds OPA's provenance object with this server's version", async () => {
    const res = await h.post("/v1/data/t/allow?provenance", admin);
    const body = (await res.json()) as { provenance: Record<string, unknown>; result: boolean };
    assert.equal(body.result, true);
    assert.deepEqual(Object.keys(body.provenance), [
      "version",
      "build_commit",
      "build_timestamp",
      "build_hostname",
    ]);
    assert.equal(body.provenance.version, packageVersion());
    const text = await (await h.post("/v1/data/t/allow?provenance=false", admin)).text();
    assert.equal(text, '{"result":true}\n');
  });

  it("puts provenance and metrics before the result, as OPA orders the keys", async () => {
    const text = await (await h.post("/v1/data/t/allow?provenance&metrics", admin)).text();
    assert.match(text, /^\{"provenance":\{.*\},"metrics":\{.*\},"result":true\}\n$/);
  });

  it("answers instrument with the metrics and evaluation counters", async () => {
    const res = await h.post("/v1/data/t/allow?instrument", admin);
    const body = (await res.json()) as { metrics: Record<string, number>; result: boolean };
    assert.equal(body.result, true);
    for (const key of [
      "timer_rego_input_parse_ns",
      "timer_rego_query_eval_ns",
      "timer_server_handler_ns",
      "counter_eval_op_rule_eval",
    ]) {
      assert.equal(typeof body.metrics[key], "number", key);
    }
    const plain = (await (await h.post("/v1/data/t/allow?metrics", admin)).json()) as {
      metrics: Record<string, number>;
    };
    assert.equal(plain.metrics.counter_eval_op_rule_eval, undefined);
  });

  it("answers explain=full with the raw trace events, op in lower case", async () => {
    const res = await h.post("/v1/data/t/allow?explain=full", admin);
    const body = (await res.json()) as { result: boolean; explanation: TraceEvent[] };
    assert.equal(body.result, true);
    assert.ok(body.explanation.length > 3);
    const first = body.explanation[0] as TraceEvent;
    assert.equal(first.op, "enter");
    assert.equal(first.type, "rule");
    assert.equal(first.node, "data.t.allow");
    assert.equal(first.query_id, 1);
    assert.equal(first.parent_id, 0);
    assert.match(first.location?.file ?? "", /t\.rego$/);
    for (const e of body.explanation) assert.equal(e.op, e.op.toLowerCase());
    assert.ok(body.explanation.some((e) => e.op === "note" && e.message === "checking role"));
  });

  it("keeps only the notes and their context with explain=notes", async () => {
    const body = (await (await h.post("/v1/data/t/allow?explain=notes", admin)).json()) as {
      explanation: TraceEvent[];
    };
    const notes = body.explanation.filter((e) => e.op === "note");
    assert.ok(notes.length >= 1);
    assert.ok(
      body.explanation.every((e) => e.op === "note" || e.op === "enter" || e.op === "redo"),
    );
  });

  it("returns the explanation of an undefined decision, without a result", async () => {
    const body = (await (
      await h.post("/v1/data/t/allow?explain=full", JSON.stringify({ input: { role: "x" } }))
    ).json()) as { result?: unknown; explanation: TraceEvent[] };
    assert.equal(body.result, undefined);
    assert.ok(body.explanation.some((e) => e.op === "fail"));
  });

  it("writes the trace as text lines with pretty", async () => {
    const body = (await (await h.post("/v1/data/t/allow?explain=notes&pretty", admin)).json()) as {
      explanation: string[];
    };
    assert.ok(body.explanation.length > 0);
    for (const line of body.explanation) assert.equal(typeof line, "string");
    assert.ok(body.explanation.some((l) => /Note "checking role"/.test(l)));
  });

  it("leaves the explanation out for another explain value (off, or a wrong case)", async () => {
    for (const mode of ["off", "FULL", "everything", ""]) {
      const text = await (await h.post(`/v1/data/t/allow?explain=${mode}`, admin)).text();
      assert.equal(text, '{"result":true}\n', mode);
    }
  });

  it("takes explain, metrics and instrument on the Query API", async () => {
    const res = await h.post(
      "/v1/query?explain=full&instrument",
      JSON.stringify({ query: "x := data.t.allow", input: { role: "admin" } }),
    );
    const body = (await res.json()) as {
      result: { x: boolean }[];
      metrics: Record<string, number>;
      explanation: TraceEvent[];
    };
    assert.deepEqual(body.result, [{ x: true }]);
    assert.equal(typeof body.metrics.timer_rego_query_eval_ns, "number");
    assert.equal(typeof body.metrics.counter_eval_op_rule_eval, "number");
    assert.equal(body.explanation[0]?.op, "enter");
    assert.equal(body.explanation[0]?.type, "body");
    const text = await (await h.get("/v1/query?q=x%20:=%201&provenance")).text();
    assert.equal(text, '{"result":[{"x":1}]}\n');
  });

  it("indents with pretty keeping the numbers' digits", async () => {
    const body =
      '{"query": "x := 123456789012345678901234567890 + 0; y := 0.10000000000000000001"}';
    const text = await (await h.post("/v1/query?pretty", body)).text();
    assert.equal(
      text,
      '{\n  "result": [\n    {\n      "x": 123456789012345678901234567890,\n      "y": 0.10000000000000000001\n    }\n  ]\n}\n',
    );
  });

  it("answers the bare default decision on POST / whatever the parameters", async () => {
    const res = await h.post("/?provenance&explain=full&instrument&metrics", '{"role": "admin"}');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "true\n");
  });
});
