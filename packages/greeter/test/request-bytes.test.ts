/**
 * Requests whose bytes no normal client would send: the server reads them strictly and
 * answers INVALID_ARGUMENT naming the problem, never a greeting built from a guess.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { after, before, describe, it } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { clockAt, type RunningGreeter, startGreeter } from "./test-server.js";

const GREET_PATH = "/unary.GreetService/greet";

interface Outcome {
  code: number;
  details: string;
  /** The reply's bytes as hex, when the call succeeded. */
  reply?: string;
}

/** Sends `hex` as the serialized GreetRequest through a grpc-js client. */
function callWithBytes(addr: string, hex: string): Promise<Outcome> {
  const client = new grpc.Client(addr, grpc.credentials.createInsecure());
  return new Promise<Outcome>((resolve) => {
    client.makeUnaryRequest(
      GREET_PATH,
      (bytes: Buffer) => bytes,
      (bytes: Buffer) => bytes,
      Buffer.from(hex, "hex"),
      (error, reply) => {
        client.close();
        if (error) resolve({ code: error.code, details: error.details });
        else resolve({ code: grpc.status.OK, details: "", reply: reply?.toString("hex") });
      },
    );
  });
}

/** Sends one raw gRPC data frame body (prefix included) over HTTP/2 and reads the trailers. */
function callWithFrame(addr: string, frame: Buffer): Promise<Outcome> {
  const session = http2.connect(`http://${addr}`);
  return new Promise<Outcome>((resolve, reject) => {
    session.on("error", reject);
    const stream = session.request({
      ":method": "POST",
      ":path": GREET_PATH,
      "content-type": "application/grpc",
      te: "trailers",
    });
    let status: Outcome | undefined;
    const read = (headers: http2.IncomingHttpHeaders) => {
      if (headers["grpc-status"] !== undefined) {
        status = {
          code: Number(headers["grpc-status"]),
          details: decodeURIComponent(String(headers["grpc-message"] ?? "")),
        };
      }
    };
    stream.on("response", read);
    stream.on("trailers", read);
    stream.on("data", () => {});
    stream.on("error", reject);
    stream.on("close", () => {
      session.close();
      if (status) resolve(status);
      else reject(new Error("the stream closed without a gRPC status"));
    });
    stream.end(frame);
  });
}

/** A gRPC length-prefixed frame: flag 0, a declared length, then `body`. */
function frame(declaredLength: number, body: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(declaredLength, 1);
  return Buffer.concat([prefix, body]);
}

describe("request bytes are read strictly", () => {
  let running: RunningGreeter;
  before(async () => {
    running = await startGreeter({ clock: clockAt(9, 0) });
  });
  after(() => running.stop());

  it("greets a well-formed request sent as raw bytes (the helpers work)", async () => {
    const outcome = await callWithBytes(running.addr, "0a03416e6e");
    assert.equal(outcome.code, grpc.status.OK);
    const message = Buffer.from(outcome.reply ?? "", "hex")
      .subarray(2)
      .toString();
    assert.equal(message, "Hello, Ann, Good Morning !!!");
  });

  it("refuses a name that is not valid UTF-8 (0a 03 ff fe 41)", async () => {
    assert.deepEqual(await callWithBytes(running.addr, "0a03fffe41"), {
      code: grpc.status.INVALID_ARGUMENT,
      details: "name is not valid UTF-8",
    });
  });

  it("refuses other invalid UTF-8: a lone surrogate and an overlong encoding", async () => {
    for (const hex of ["0a03eda080", "0a02c0af"]) {
      const outcome = await callWithBytes(running.addr, hex);
      assert.equal(outcome.code, grpc.status.INVALID_ARGUMENT, hex);
      assert.equal(outcome.details, "name is not valid UTF-8", hex);
    }
  });

  it("refuses a message whose name runs past its end", async () => {
    // Length 5, one byte present: protobufjs clamps this and greets "A".
    for (const hex of ["0a0541", "0a", "0a03416e6e12", "0a80"]) {
      assert.deepEqual(
        await callWithBytes(running.addr, hex),
        { code: grpc.status.INVALID_ARGUMENT, details: "request message is truncated" },
        hex,
      );
    }
  });

  it("refuses a name sent with the wrong wire type", async () => {
    const outcome = await callWithBytes(running.addr, "08c801");
    assert.equal(outcome.code, grpc.status.INVALID_ARGUMENT);
    assert.match(outcome.details, /request message is malformed: field name has wire type 0/);
  });

  it("skips unknown fields and keeps the last name, as protobuf does", async () => {
    const outcome = await callWithBytes(running.addr, "0a03426f6210051201780a03416e6e");
    assert.equal(outcome.code, grpc.status.OK);
    assert.match(Buffer.from(outcome.reply ?? "", "hex").toString(), /Hello, Ann, /);
  });

  it("refuses a gRPC frame cut short by the end of the stream", async () => {
    const outcome = await callWithFrame(running.addr, frame(10, Buffer.from("0a03416e", "hex")));
    assert.equal(outcome.code, grpc.status.INVALID_ARGUMENT);
    assert.match(outcome.details, /truncated/);
  });

  it("still greets after bad requests", async () => {
    await callWithBytes(running.addr, "0a03fffe41");
    assert.equal((await running.client().greet("Ann")).phrase, "Good Morning");
  });
});
