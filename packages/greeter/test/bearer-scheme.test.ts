/**
 * RFC 6750 (via RFC 7235) makes the auth scheme name case-insensitive: `bearer`, `BEARER` and
 * `Bearer` are the same scheme. Sent with raw metadata, since GreeterClient always writes `Bearer`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { type GreetResponse, greetClientConstructor } from "../src/proto.js";
import { clockAt, type RunningGreeter, startGreeter } from "./test-server.js";

type GreetMethod = (
  request: { name: string },
  metadata: grpc.Metadata,
  callback: (error: grpc.ServiceError | null, response?: GreetResponse) => void,
) => void;

/** Calls greet with `authorization: <header>`; resolves to the message or the status code. */
function greetWithHeader(addr: string, header: string): Promise<string | grpc.status> {
  const Client = greetClientConstructor();
  const client = new Client(addr, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set("authorization", header);
  return new Promise<string | grpc.status>((resolve) => {
    (client as unknown as { greet: GreetMethod }).greet({ name: "Ann" }, metadata, (error, reply) =>
      resolve(error ? error.code : (reply?.message ?? "")),
    );
  }).finally(() => client.close());
}

describe("bearer scheme", () => {
  let running: RunningGreeter;
  before(async () => {
    running = await startGreeter({ clock: clockAt(9, 0), token: "s3cret" });
  });
  after(() => running.stop());

  for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
    it(`accepts the scheme written \`${scheme}\``, async () => {
      assert.equal(
        await greetWithHeader(running.addr, `${scheme} s3cret`),
        "Hello, Ann, Good Morning !!!",
      );
    });
  }

  it("still refuses a wrong token, a wrong-case token and another scheme", async () => {
    for (const header of ["bearer wrong", "Bearer S3CRET", "Basic s3cret", "bearers3cret"]) {
      assert.equal(
        await greetWithHeader(running.addr, header),
        grpc.status.UNAUTHENTICATED,
        `authorization: ${header}`,
      );
    }
  });
});
