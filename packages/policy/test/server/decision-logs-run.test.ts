/**
 * `rego run --server -c <config>` with a `decision_logs` section: decisions reach a log
 * service inside the test as gzipped batches, masked by `data.system.log.mask`; the events'
 * ids are the ones the clients got; a bad section stops start-up naming the key.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { tempTree } from "../fixtures.js";
import { failedStart, startServer, waitFor } from "./bundle-service.js";

interface Batch {
  path: string;
  authorization?: string;
  events: Record<string, unknown>[];
}

describe("rego run with decision_logs", () => {
  let service: Server;
  let url = "";
  const batches: Batch[] = [];
  let dir = "";
  let tree: ReturnType<typeof tempTree> | undefined;

  before(async () => {
    service = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const events = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString("utf8"));
        batches.push({ path: req.url ?? "", authorization: req.headers.authorization, events });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/v1`;
    tree = tempTree({
      "policy.rego": 'package authz\n\ndefault allow := false\n\nallow if input.user == "alice"\n',
      "mask.rego": 'package system.log\n\nmask contains "/input/password"\n',
    });
    dir = tree.dir;
  });
  after(async () => {
    tree?.remove();
    await new Promise<void>((resolve) => service.close(() => resolve()));
  });

  it("uploads masked decision events to the configured service on shutdown", async () => {
    const config = join(dir, "c.json");
    writeFileSync(
      config,
      JSON.stringify({
        services: { logs: { url, credentials: { bearer: { token: "secret" } } } },
        labels: { team: "a" },
        decision_logs: {
          service: "logs",
          reporting: { min_delay_seconds: 300, max_delay_seconds: 600 },
          request_context: { http: { headers: ["X-Request-Id"] } },
        },
      }),
    );
    const rego = await startServer(["-c", config, dir]);
    const ids: string[] = [];
    let code: number;
    try {
      for (const user of ["alice", "bob"]) {
        const res = await fetch(`${rego.url}/v1/data/authz/allow`, {
          method: "POST",
          body: JSON.stringify({ input: { user, password: "hunter2" } }),
          headers: { "x-request-id": `req-${user}` },
        });
        const body = (await res.json()) as { decision_id?: string; result?: boolean };
        assert.equal(body.result, user === "alice");
        assert.ok(body.decision_id, "the response carries the decision id");
        ids.push(body.decision_id);
      }
    } finally {
      code = await rego.stop();
    }
    assert.equal(code, 0);
    const events = await waitFor("uploaded events", () =>
      batches.flatMap((b) => b.events).length >= 2 ? batches.flatMap((b) => b.events) : undefined,
    );
    assert.equal(batches[0]?.path, "/v1/logs");
    assert.equal(batches[0]?.authorization, "Bearer secret");
    assert.deepEqual(
      events.map((e) => e.decision_id),
      ids,
    );
    const first = events[0] as Record<string, unknown>;
    assert.equal(first.path, "authz/allow");
    assert.deepEqual(first.input, { user: "alice" });
    assert.deepEqual(first.erased, ["/input/password"]);
    assert.equal(first.result, true);
    assert.deepEqual(first.request_context, {
      http: { headers: { "X-Request-Id": ["req-alice"] } },
    });
    assert.equal((first.labels as Record<string, string>).team, "a");
  });

  it("refuses to start with an invalid decision_logs section, naming the key", async () => {
    const config = join(dir, "bad.json");
    writeFileSync(
      config,
      JSON.stringify({
        services: { logs: { url } },
        decision_logs: { service: "logs", reporting: { min_delay_seconds: 5 } },
      }),
    );
    const { code, stderr } = await failedStart(["-c", config, dir]);
    assert.equal(code, 1);
    assert.match(stderr, /max_delay_seconds/);
  });

  it("refuses a decision_logs section naming an unknown service", async () => {
    const config = join(dir, "unknown.json");
    writeFileSync(
      config,
      JSON.stringify({ services: { logs: { url } }, decision_logs: { service: "nope" } }),
    );
    const { code, stderr } = await failedStart(["-c", config, dir]);
    assert.equal(code, 1);
    assert.match(stderr, /invalid service name "nope" in decision_logs/);
  });
});
