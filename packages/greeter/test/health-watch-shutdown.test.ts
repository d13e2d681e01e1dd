/**
 * A health Watch stream never ends on its own, so a graceful shutdown used to wait the whole
 * grace period for it and then cancel it. Now shutdown sends NOT_SERVING, then ends the stream
 * with UNAVAILABLE (the server is going away: reconnect elsewhere), and completes without force.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { startGreeter } from "./test-server.js";

type Watch = (request: { service: string }) => grpc.ClientReadableStream<{ status: string }>;

function healthClient(addr: string): grpc.Client {
  const loaded = grpc.loadPackageDefinition(
    protoLoader.loadSync(healthProtoPath, { keepCase: true, defaults: true, enums: String }),
  ) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  return new loaded.grpc.health.v1.Health(addr, grpc.credentials.createInsecure());
}

describe("health Watch at shutdown", () => {
  it("receives NOT_SERVING, then the stream ends and shutdown needs no force", async () => {
    const running = await startGreeter();
    const client = healthClient(running.addr);
    try {
      const statuses: string[] = [];
      const stream = (client as unknown as { watch: Watch }).watch({ service: "" });
      stream.on("error", () => {}); // the ending status is read from the "status" event
      const ended = new Promise<grpc.StatusObject>((resolve) => stream.on("status", resolve));
      await new Promise<void>((resolve) =>
        stream.on("data", (reply: { status: string }) => {
          statuses.push(reply.status);
          resolve();
        }),
      );
      assert.deepEqual(statuses, ["SERVING"]);
      // A grace period the test never reaches when the stream is ended properly.
      const outcome = await running.server.shutdown(3000);
      const status = await ended;
      assert.deepEqual(statuses, ["SERVING", "NOT_SERVING"]);
      assert.equal(status.code, grpc.status.UNAVAILABLE);
      assert.match(status.details, /shutting down/);
      assert.equal(outcome.forced, false, "shutdown had to cancel calls after the grace period");
    } finally {
      client.close();
    }
  });
});
