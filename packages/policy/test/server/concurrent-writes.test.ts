/**
 * Decisions while data and policies are written: every answer is one whole state (no torn
 * reads), and concurrent writes lose nothing (the same final state as sent one by one).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

const PAIR = `package c

pair := [data.counter.a, data.counter.b]
`;

const versionPolicy = (n: number) => `package v

n := ${n}

double := n * 2
`;

describe("decisions during writes", () => {
  const files = policyDir({
    "c.rego": PAIR,
    "v.rego": versionPolicy(0),
    "data.json": JSON.stringify({ counter: { a: 0, b: 0 }, list: [] }),
  });
  let h: Harness;
  let versionId: string;
  before(async () => {
    h = await startHarness([files.dir]);
    const list = (await (await h.get("/v1/policies")).json()) as { result: { id: string }[] };
    versionId = (list.result.find((p) => p.id.endsWith("v.rego"))?.id ?? "").replace(/^\//, "");
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("answers each decision from the state before or after a write, never between", async () => {
    const writes: Promise<Response>[] = [];
    const decisions: Promise<unknown>[] = [];
    for (let k = 1; k <= 40; k++) {
      // Two operations of one PATCH: a decision must never see a without b.
      writes.push(
        h.send(
          "PATCH",
          "/v1/data/counter",
          JSON.stringify([
            { op: "replace", path: "a", value: k },
            { op: "replace", path: "b", value: k },
          ]),
        ),
      );
      if (k % 4 === 0) {
        writes.push(h.send("PUT", `/v1/policies/${versionId}`, versionPolicy(k)));
      }
      for (let j = 0; j < 5; j++) {
        decisions.push(h.post("/v1/data/c/pair", "{}").then((r) => r.json()));
        decisions.push(h.post("/v1/data/v", "{}").then((r) => r.json()));
      }
    }
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    assert.ok(
      statuses.every((s) => s === 204 || s === 200),
      statuses.join(","),
    );
    const answers = (await Promise.all(decisions)) as {
      result: number[] | { n: number; double: number };
    }[];
    for (const { result } of answers) {
      if (Array.isArray(result)) {
        assert.equal(result[0], result[1], `torn pair ${JSON.stringify(result)}`);
        assert.ok((result[0] as number) >= 0 && (result[0] as number) <= 40);
      } else {
        assert.equal(result.double, result.n * 2, `torn policy ${JSON.stringify(result)}`);
      }
    }
    const last = (await (await h.get("/v1/data/c/pair")).json()) as { result: number[] };
    assert.equal(last.result[0], last.result[1]);
  });

  it("loses no write when many arrive at once", async () => {
    const n = 60;
    const sent = Array.from({ length: n }, (_, i) =>
      h.send("PATCH", "/v1/data/list", JSON.stringify([{ op: "add", path: "-", value: i }])),
    );
    for (const r of await Promise.all(sent)) assert.equal(r.status, 204);
    const list = (await (await h.get("/v1/data/list")).json()) as { result: number[] };
    assert.deepEqual(
      [...list.result].sort((a, b) => a - b),
      Array.from({ length: n }, (_, i) => i),
    );
  });
});
