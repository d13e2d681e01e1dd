/** `collectBody`: the body's callback is called once, whatever the request emits after it. */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import { describe, it } from "node:test";
import { ApiError } from "../../src/server/api-error.js";
import { collectBody } from "../../src/server/request-body.js";

/** A request that emits what the test tells it to. */
function fakeRequest(): IncomingMessage & EventEmitter {
  const req = new EventEmitter() as IncomingMessage & EventEmitter;
  Object.assign(req, { headers: {}, destroy: () => req });
  return req;
}

describe("collectBody", () => {
  it("calls back once with the body, not again for an error after the end", () => {
    const req = fakeRequest();
    const calls: [Error | undefined, string | undefined][] = [];
    collectBody(req, 100, (error, body) => calls.push([error, body?.toString("utf8")]));
    req.emit("data", Buffer.from('{"input":'));
    req.emit("data", Buffer.from("1}"));
    req.emit("end");
    req.emit("error", new Error("connection reset"));
    assert.deepEqual(calls, [[undefined, '{"input":1}']]);
  });

  it("calls back once with the first error", () => {
    const req = fakeRequest();
    const calls: (Error | undefined)[] = [];
    collectBody(req, 100, (error) => calls.push(error));
    req.emit("error", new Error("aborted"));
    req.emit("end");
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.message, "aborted");
  });

  it("answers 413 once for a body over the limit", () => {
    const req = fakeRequest();
    const calls: (Error | undefined)[] = [];
    collectBody(req, 4, (error) => calls.push(error));
    req.emit("data", Buffer.from("123456"));
    req.emit("end");
    req.emit("error", new Error("late"));
    assert.equal(calls.length, 1);
    assert.ok(calls[0] instanceof ApiError);
    assert.equal(calls[0].kind, "too_large");
  });
});
